/** The operations a service publishes in its /openapi.json, as the fuzzer and the access matrix need them. */
export interface Operation {
  service: 'claims' | 'evidence';
  method: string;
  path: string;
  /** 'public' | 'claimant' | the scopes any one of which opens it. */
  security: 'public' | 'claimant' | string[];
  requestBody?: { contentType: string; schema: any };
  queryParameters: { name: string; required: boolean; schema: any }[];
}

export async function fetchOperations(serviceUrl: string, service: Operation['service']): Promise<Operation[]> {
  const response = await fetch(`${serviceUrl}/openapi.json`);
  if (response.status !== 200) throw new Error(`${service} /openapi.json answered ${response.status}`);
  const document = (await response.json()) as {
    paths: Record<string, Record<string, any>>;
    servers?: { url: string }[];
    components?: { schemas?: Record<string, any> };
  };
  // request bodies are named schemas: `{ $ref: '#/components/schemas/Name' }`
  const resolve = (schema: any) =>
    typeof schema?.$ref === 'string' ? document.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')] : schema;
  // paths are relative to the document's server URL (the service's base path, e.g. /api/evidence)
  const base = (document.servers?.[0]?.url ?? '').replace(/\/$/, '');
  const operations: Operation[] = [];
  for (const [relative, methods] of Object.entries(document.paths ?? {})) {
    const path = base && !relative.startsWith(`${base}/`) ? `${base}${relative}` : relative;
    for (const [method, operation] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const requirements: Record<string, string[]>[] = operation.security ?? [];
      const security: Operation['security'] =
        requirements.length === 0
          ? 'public'
          : requirements.some((r) => 'claimantToken' in r)
            ? 'claimant'
            : requirements.flatMap((r) => Object.values(r).flat());
      const content = operation.requestBody?.content as Record<string, { schema: any }> | undefined;
      const [contentType] = content ? Object.keys(content) : [];
      operations.push({
        service,
        method: method.toUpperCase(),
        path,
        security,
        requestBody: contentType ? { contentType, schema: resolve(content![contentType].schema) } : undefined,
        queryParameters: (operation.parameters ?? [])
          .filter((p: any) => p.in === 'query')
          .map((p: any) => ({ name: p.name, required: !!p.required, schema: p.schema ?? {} })),
      });
    }
  }
  return operations;
}

export const ALL_SCOPES = ['claims:read', 'claims:write', 'claims:decide', 'evidence:write', 'evidence:approve', 'audit:read'];
