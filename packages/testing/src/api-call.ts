/**
 * `method` `path` under `baseUrl` as `authorization`, `body` as JSON (none when undefined); the answer parsed.
 * Throws with the answer's body when the status is not `expected` (any 2xx when not given).
 */
export async function callApi(
  baseUrl: string,
  method: string,
  path: string,
  authorization: string,
  body?: unknown,
  expected?: number,
): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: body === undefined ? { authorization } : { authorization, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (expected === undefined ? response.status >= 300 : response.status !== expected)
    throw new Error(`${method} ${path} answered ${response.status}${expected === undefined ? '' : `, expected ${expected}`}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}
