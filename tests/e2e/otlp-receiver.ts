import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';

/** One span as an OTLP collector receives it, with the resource of the process that sent it. */
export interface ReceivedSpan {
  resource: Record<string, unknown>;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's numbering: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
}

export const OTLP_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

/**
 * A stand-in OTLP/HTTP collector: answers POST /v1/traces and decodes each export, protobuf (the SDK's default)
 * or JSON, by the opentelemetry-proto field numbers of the messages it reads.
 */
export async function startOtlpReceiver(): Promise<{
  url: string;
  spans: ReceivedSpan[];
  contentTypes: Set<string>;
  close(): Promise<void>;
}> {
  const spans: ReceivedSpan[] = [];
  const contentTypes = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const type = String(req.headers['content-type']);
      contentTypes.add(type);
      spans.push(...(type.startsWith('application/json') ? fromJson(JSON.parse(body.toString('utf8'))) : fromProtobuf(body)));
      res.writeHead(200, { 'content-type': type }).end(type.startsWith('application/json') ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

type Field = { no: number; value: bigint | Buffer };

function varint(buf: Buffer, at: number): [bigint, number] {
  let result = 0n;
  for (let shift = 0n; ; shift += 7n) {
    const byte = buf[at++];
    result |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) return [result, at];
  }
}

/** The fields of one protobuf message: varints as bigint, everything else as its bytes. */
function fields(buf: Buffer): Field[] {
  const found: Field[] = [];
  for (let at = 0; at < buf.length;) {
    const [key, next] = varint(buf, at);
    at = next;
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [value, after] = varint(buf, at);
      found.push({ no, value });
      at = after;
    } else if (wire === 2) {
      const [length, after] = varint(buf, at);
      found.push({ no, value: buf.subarray(after, after + Number(length)) });
      at = after + Number(length);
    } else {
      const size = wire === 1 ? 8 : 4;
      found.push({ no, value: buf.subarray(at, at + size) });
      at += size;
    }
  }
  return found;
}

const bytesOf = (message: Field[], no: number) => message.filter((field) => field.no === no).map((field) => field.value as Buffer);

function anyValue(buf: Buffer): unknown {
  const [field] = fields(buf);
  if (!field) return undefined;
  if (field.no === 1) return (field.value as Buffer).toString('utf8');
  if (field.no === 2) return field.value === 1n;
  if (field.no === 3) return Number(BigInt.asIntN(64, field.value as bigint));
  if (field.no === 4) return (field.value as Buffer).readDoubleLE(0);
  return field.value;
}

function attributes(list: Buffer[]): Record<string, unknown> {
  return Object.fromEntries(
    list.map((keyValue) => {
      const message = fields(keyValue);
      return [bytesOf(message, 1)[0].toString('utf8'), anyValue(bytesOf(message, 2)[0] ?? Buffer.alloc(0))];
    }),
  );
}

/** ExportTraceServiceRequest → ResourceSpans (1) → Resource (1) / ScopeSpans (2) → Span (2). */
function fromProtobuf(body: Buffer): ReceivedSpan[] {
  return bytesOf(fields(body), 1).flatMap((resourceSpans) => {
    const message = fields(resourceSpans);
    const resource = attributes(bytesOf(fields(bytesOf(message, 1)[0] ?? Buffer.alloc(0)), 1));
    return bytesOf(message, 2).flatMap((scopeSpans) =>
      bytesOf(fields(scopeSpans), 2).map((spanBytes) => {
        const span = fields(spanBytes);
        const hex = (no: number) => (bytesOf(span, no)[0] ?? Buffer.alloc(0)).toString('hex');
        return {
          resource,
          traceId: hex(1),
          spanId: hex(2),
          parentSpanId: hex(4),
          name: bytesOf(span, 5)[0].toString('utf8'),
          kind: Number(span.find((field) => field.no === 6)?.value ?? 0),
          attributes: attributes(bytesOf(span, 9)),
        };
      }),
    );
  });
}

type JsonKeyValue = { key: string; value: Record<string, unknown> };

function fromJson(body: {
  resourceSpans: {
    resource: { attributes: JsonKeyValue[] };
    scopeSpans: { spans: (Omit<ReceivedSpan, 'resource' | 'attributes'> & { attributes: JsonKeyValue[] })[] }[];
  }[];
}): ReceivedSpan[] {
  const values = (list: JsonKeyValue[]) => Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));
  return body.resourceSpans.flatMap(({ resource, scopeSpans }) =>
    scopeSpans.flatMap(({ spans }) =>
      spans.map((span) => ({
        ...span,
        parentSpanId: span.parentSpanId ?? '',
        resource: values(resource.attributes),
        attributes: values(span.attributes),
      })),
    ),
  );
}
