import net from 'node:net';

export interface RawResponse {
  status?: number;
  headers: Record<string, string>;
  body: string;
  error?: string;
  ms: number;
}

/**
 * Sends bytes exactly as given (a whole HTTP/1.1 request, however broken) and reads the answer until the
 * server closes or `timeoutMs` passes. For headers and multipart streams no HTTP client would send.
 */
export function sendRaw(url: string, request: Buffer, timeoutMs = 15000): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname);
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      // interim responses (100 Continue) come before the real one
      const text = Buffer.concat(chunks)
        .toString('latin1')
        .replace(/^(HTTP\/1\.[01] 1\d\d[^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '');
      const headerEnd = text.indexOf('\r\n\r\n');
      const head = headerEnd >= 0 ? text.slice(0, headerEnd) : text;
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      const headers: Record<string, string> = {};
      for (const line of head.split('\r\n').slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: match ? Number(match[1]) : undefined,
        headers,
        body: headerEnd >= 0 ? text.slice(headerEnd + 4) : '',
        error: match ? undefined : (error ?? 'no response'),
        ms: Date.now() - started,
      });
    };
    socket.setTimeout(timeoutMs, () => finish('timeout'));
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      // one response is enough: stop once its body (by Content-Length) is complete
      const text = Buffer.concat(chunks)
        .toString('latin1')
        .replace(/^(HTTP\/1\.[01] 1\d\d[^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '');
      const headerEnd = text.indexOf('\r\n\r\n');
      if (headerEnd >= 0) {
        const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, headerEnd));
        if (length && Buffer.byteLength(text.slice(headerEnd + 4), 'latin1') >= Number(length[1])) finish();
      }
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A server may answer early (413, 400) and reset the rest of an upload: keep what was answered.
      finish(error.code ?? error.message);
    });
    socket.on('connect', () => {
      socket.write(request, () => undefined);
    });
  });
}

/** Builds a raw request: request line, headers (verbatim) and body; Content-Length added unless given. */
export function rawRequest(
  method: string,
  path: string,
  headers: [string, string][],
  body: Buffer = Buffer.alloc(0),
  host = '127.0.0.1',
): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: close'];
  const hasLength = headers.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name));
  for (const [name, value] of headers) lines.push(`${name}: ${value}`);
  if (!hasLength && (body.length > 0 || method !== 'GET')) lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}
