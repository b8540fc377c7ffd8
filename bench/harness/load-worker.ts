/**
 * The load generator: a process of its own (forked by load-client.ts), so generating load never
 * shares an event loop with the servers being measured. It answers one task at a time over IPC.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { UUID_PATTERN } from '@platform/http';
import { percentile } from './stats';
import { pgClient } from './workspace-modules';
import type { CannonResult, LatencyResult, LoadTask, MixResult, RequestSpec, SqlResult, TransferResult } from './load-protocol';

function cycle<T>(items: T[]): () => T {
  let next = 0;
  return () => items[next++ % items.length];
}

async function cannon(task: Extract<LoadTask, { kind: 'cannon' }>): Promise<CannonResult> {
  const nextRequest = cycle(task.requests);
  const first = task.requests[0];
  const result = await autocannon({
    url: task.url,
    connections: task.connections,
    duration: task.durationSec,
    pipelining: 1,
    timeout: 30,
    method: first.method as any,
    requests: [
      {
        setupRequest: (request: any) => {
          const spec = nextRequest();
          return { ...request, method: spec.method, path: spec.path, headers: spec.headers ?? {}, body: spec.body };
        },
      },
    ],
  });
  const ok = result['2xx'];
  return {
    rps: ok / result.duration,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
  };
}

/**
 * Kept-alive connections that close after 4 s idle, before the servers' 5 s keepAliveTimeout: a request
 * sent on a socket the server is closing fails with ECONNRESET (a status-0 "error" of the load itself, seen
 * once in a 10-minute mixed run). The gateway's upstream agent does the same for the same reason.
 */
function keepAliveAgent(maxSockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets, timeout: 4000 });
}

function send(agent: http.Agent, base: URL, spec: RequestSpec): Promise<number> {
  if (spec.fileBytes !== undefined) return uploadOne(agent, base, spec, spec.fileBytes);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { agent, host: base.hostname, port: base.port, method: spec.method, path: spec.path, headers: spec.headers },
      (response) => {
        response.on('data', () => undefined);
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(spec.body);
  });
}

/** Latencies of the 2xx answers (microsecond resolution), and what failed. */
class Recorder {
  readonly latencies: number[] = [];
  errors = 0;
  non2xx = 0;

  /** Sends and records; resolves with the status (0: no response). */
  async time(agent: http.Agent, base: URL, spec: RequestSpec): Promise<number> {
    const t0 = process.hrtime.bigint();
    try {
      const status = await send(agent, base, spec);
      if (status >= 200 && status < 300) this.latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      else this.non2xx++;
      return status;
    } catch {
      this.errors++;
      return 0;
    }
  }

  result(seconds: number): LatencyResult {
    const { latencies } = this;
    return {
      count: latencies.length,
      errors: this.errors,
      non2xx: this.non2xx,
      achieved_rps: latencies.length / seconds,
      p50_ms: percentile(latencies, 50),
      p90_ms: percentile(latencies, 90),
      p99_ms: percentile(latencies, 99),
      max_ms: percentile(latencies, 100),
    };
  }
}

/**
 * Open-loop arrivals: `fire` is called `rate` times a second for `durationSec`, whether or not earlier
 * requests have answered (a slow server meets the same arrivals, so queueing shows in the latencies).
 * Resolves once every request has answered; returns the elapsed seconds.
 */
async function arrivals(rate: number, durationSec: number, fire: () => Promise<unknown>): Promise<number> {
  const inFlight = new Set<Promise<unknown>>();
  const started = process.hrtime.bigint();
  const total = Math.round(rate * durationSec);
  let sent = 0;
  while (sent < total) {
    const elapsedSec = Number(process.hrtime.bigint() - started) / 1e9;
    const due = Math.min(total, Math.floor(elapsedSec * rate));
    while (sent < due) {
      sent++;
      const pending = fire();
      inFlight.add(pending);
      void pending.finally(() => inFlight.delete(pending));
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Closed loop: `connections` callers, each sending its next request as soon as the last answered. */
async function closedLoop(connections: number, durationSec: number, fire: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  const deadline = Date.now() + durationSec * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < deadline) await fire();
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/**
 * Open-loop load at a fixed arrival rate (not closed-loop like autocannon), with every latency kept
 * at microsecond resolution: autocannon's histogram rounds to whole milliseconds.
 */
async function openLoop(task: Extract<LoadTask, { kind: 'openloop' }>): Promise<LatencyResult> {
  const base = new URL(task.url);
  const agent = keepAliveAgent(task.connections);
  const nextRequest = cycle(task.requests);
  const recorder = new Recorder();
  const seconds = await arrivals(task.rate, task.durationSec, () => recorder.time(agent, base, nextRequest()));
  agent.destroy();
  return recorder.result(seconds);
}

/** Smooth weighted round robin (as nginx balances upstreams): the operations interleaved evenly by weight. */
function weightedCycle<T extends { weight: number }>(items: T[]): () => T {
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  const current = items.map(() => 0);
  return () => {
    let best = 0;
    for (let i = 0; i < items.length; i++) {
      current[i] += items[i].weight;
      if (current[i] > current[best]) best = i;
    }
    current[best] -= total;
    return items[best];
  };
}

/** A mix of operations by weight, open loop at `rate` or closed loop (saturation) without it; latencies per operation. */
async function mix(task: Extract<LoadTask, { kind: 'mix' }>): Promise<MixResult> {
  const base = new URL(task.url);
  const agent = keepAliveAgent(task.connections);
  const operations = task.operations.map((operation) => ({ ...operation, next: cycle(operation.requests), recorder: new Recorder() }));
  const nextOperation = weightedCycle(operations);
  const failures: Record<string, number> = {};
  const started = process.hrtime.bigint();
  const slowestBy10s: number[] = [];
  const fire = async () => {
    const operation = nextOperation();
    const sentAt = process.hrtime.bigint();
    const status = await operation.recorder.time(agent, base, operation.next());
    if (status < 200 || status >= 300) failures[`${operation.name} ${status}`] = (failures[`${operation.name} ${status}`] ?? 0) + 1;
    const window = Math.floor(Number(sentAt - started) / 1e10);
    slowestBy10s[window] = Math.max(slowestBy10s[window] ?? 0, Number(process.hrtime.bigint() - sentAt) / 1e6);
  };
  const seconds =
    task.rate === undefined
      ? await closedLoop(task.connections, task.durationSec, fire)
      : await arrivals(task.rate, task.durationSec, fire);
  agent.destroy();
  const results = Object.fromEntries(operations.map((operation) => [operation.name, operation.recorder.result(seconds)]));
  const all = Object.values(results);
  return {
    seconds,
    achieved_rps: all.reduce((sum, r) => sum + r.count, 0) / seconds,
    errors: all.reduce((sum, r) => sum + r.errors, 0),
    non2xx: all.reduce((sum, r) => sum + r.non2xx, 0),
    failures,
    operations: results,
    slowest_ms_by_10s: Array.from(slowestBy10s, (ms) => Math.round(ms ?? 0)),
  };
}

const CHUNK = 256 * 1024;
let payload: Buffer | undefined;

/** A PDF by its bytes (%PDF- magic), unique per upload so no upload is a duplicate of another. */
function fileHeader(): Buffer {
  return Buffer.from(`%PDF-1.7\n%${randomUUID()}\n`);
}

function randomPayload(size: number): Buffer {
  if (!payload || payload.length !== size) payload = randomBytes(size);
  return payload;
}

async function writeChunks(write: (chunk: Buffer) => boolean, drained: () => Promise<void>, header: Buffer, body: Buffer, size: number) {
  if (!write(header)) await drained();
  for (let offset = header.length; offset < size; offset += CHUNK) {
    if (!write(body.subarray(offset, Math.min(size, offset + CHUNK)))) await drained();
  }
}

function uploadOne(
  agent: http.Agent,
  base: URL,
  target: { path: string; headers?: Record<string, string> },
  size: number,
): Promise<number> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const preamble = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="document_type"\r\n\r\nother\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const trailer = Buffer.from(`\r\n--${boundary}--\r\n`);
  const header = fileHeader();
  const body = randomPayload(size);
  return new Promise((resolve, reject) => {
    const request = http.request({
      agent,
      host: base.hostname,
      port: base.port,
      method: 'POST',
      path: target.path,
      headers: {
        ...target.headers,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(preamble.length + size + trailer.length),
      },
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    const drained = () => new Promise<void>((done) => request.once('drain', () => done()));
    void (async () => {
      request.write(preamble);
      await writeChunks((chunk) => request.write(chunk), drained, header, body, size);
      request.end(trailer);
    })().catch(reject);
  });
}

async function runConcurrently(count: number, concurrency: number, job: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await job(next++);
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function uploads(task: Extract<LoadTask, { kind: 'upload' }>): Promise<TransferResult> {
  const base = new URL(task.url);
  const agent = keepAliveAgent(task.concurrency);
  const statuses: Record<string, number> = {};
  randomPayload(task.sizeBytes);
  const seconds = await runConcurrently(task.count, task.concurrency, async (index) => {
    const { path, token } = task.targets[index % task.targets.length];
    const status = await uploadOne(agent, base, { path, headers: { authorization: `Bearer ${token}` } }, task.sizeBytes).catch(() => 0);
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  agent.destroy();
  return { seconds, bytes: task.count * task.sizeBytes, mib_per_s: (task.count * task.sizeBytes) / 1048576 / seconds, statuses };
}

/** The baseline of an upload: the same bytes written with `fs` streams, as many at once; the files stay, as the service's do. */
async function diskWrites(task: Extract<LoadTask, { kind: 'disk' }>): Promise<TransferResult> {
  randomPayload(task.sizeBytes);
  const seconds = await runConcurrently(task.count, task.concurrency, async (index) => {
    const file = path.join(task.dir, `bench-${index}-${randomUUID()}.bin`);
    const stream = createWriteStream(file);
    const drained = () => new Promise<void>((done) => stream.once('drain', () => done()));
    await writeChunks((chunk) => stream.write(chunk), drained, fileHeader(), randomPayload(task.sizeBytes), task.sizeBytes);
    await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    if (task.fsync) {
      const handle = await open(file, 'r');
      await handle.sync();
      await handle.close();
    }
  });
  return { seconds, bytes: task.count * task.sizeBytes, mib_per_s: (task.count * task.sizeBytes) / 1048576 / seconds, statuses: {} };
}

/** Replays counted over the life of the worker, so claim numbers stay unique across tasks. */
let replay = 0;

const CLAIM_NUMBER = /^CLM-\d{4}-\d+$/;

/**
 * The bare-SQL baseline of intake: the statements one intake issued (captured on the wire), replayed
 * by plain node-postgres clients, `connections` at once. Identifiers are fresh per replay (every UUID
 * maps to a new one, consistently within a replay; claim numbers too) so unique keys hold, except those of
 * rows that already exist (the returning claimant the intake found), which foreign keys point at.
 */
async function sqlReplay(task: Extract<LoadTask, { kind: 'sql' }>): Promise<SqlResult> {
  const existing = new Set(task.existingIds ?? []);
  const clients = await Promise.all(
    Array.from({ length: task.connections }, async () => {
      const client = pgClient(task.databaseUrl);
      await client.connect();
      return client;
    }),
  );
  let done = 0;
  let errors = 0;
  let firstError: string | undefined;
  const deadline = Date.now() + task.durationSec * 1000;
  const started = process.hrtime.bigint();
  await Promise.all(
    clients.map(async (client) => {
      while (Date.now() < deadline) {
        const mapping = new Map<string, string>();
        const id = `${process.pid}-${replay++}`;
        const fresh = (value: unknown): unknown => {
          if (typeof value !== 'string') return value;
          if (UUID_PATTERN.test(value) && !existing.has(value)) {
            if (!mapping.has(value)) mapping.set(value, randomUUID());
            return mapping.get(value);
          }
          if (CLAIM_NUMBER.test(value)) return `CLM-BENCH-${id}`;
          return value;
        };
        try {
          for (const statement of task.statements) await client.query(statement.text, statement.values?.map(fresh));
          done++;
        } catch (error) {
          errors++;
          firstError ??= (error as Error).message;
          await client.query('ROLLBACK').catch(() => undefined);
        }
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await Promise.all(clients.map((client) => client.end()));
  return { tps: done / seconds, done, errors, first_error: firstError, seconds };
}

async function handle(task: LoadTask): Promise<unknown> {
  switch (task.kind) {
    case 'cannon':
      return cannon(task);
    case 'openloop':
      return openLoop(task);
    case 'mix':
      return mix(task);
    case 'upload':
      return uploads(task);
    case 'disk':
      return diskWrites(task);
    case 'sql':
      return sqlReplay(task);
  }
}

process.on('message', (message: { id: number; task: LoadTask }) => {
  handle(message.task).then(
    (result) => process.send!({ id: message.id, result }),
    (error: Error) => process.send!({ id: message.id, error: error.stack ?? error.message }),
  );
});
process.on('disconnect', () => process.exit(0));
