/**
 * A supertest parser that keeps the response body as bytes, whatever its content type (a zip, an image, a
 * script): `request(url).get(path).buffer(true).parse(binaryBody)`.
 */
export function binaryBody(res: unknown, done: (error: Error | null, body: Buffer) => void): void {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}
