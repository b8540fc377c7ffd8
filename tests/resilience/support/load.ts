/**
 * The load generator, run as its own process (`tsx tests/resilience/support/load.ts`) so the load does not
 * share an event loop with the test that injects faults. It sends requests at a steady rate, bounded in
 * count and in time, and writes one JSON line per request to LOAD_OUT. SIGTERM/SIGINT stops scheduling;
 * requests in flight are awaited (bounded), then it exits 0. With `concurrency` it runs a closed loop instead
 * (that many clients, each sending its next operation when the previous one answered): how saturation is found.
 *
 * LOAD_SPEC (JSON): { target, mode, rate, maxRequests, maxSeconds, internalToken?, concurrency? }
 *   mode "intake"         POST /api/claims/public/claims (with a unique Idempotency-Key)
 *   mode "intake+upload"  intake, then one attachment upload to the new claim
 *   mode "mixed"          intake, claimant status reads, uploads, internal list and read
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { claimBody, multipart, uniquePng } from './payloads';

export interface LoadSpec {
  target: string;
  mode: 'intake' | 'intake+upload' | 'mixed';
  rate: number;
  maxRequests: number;
  maxSeconds: number;
  internalToken?: string;
  requestTimeoutMs?: number;
  /** Extra bytes per uploaded file (bigger files keep uploads in flight longer). */
  uploadBytes?: number;
  /** Closed loop: this many clients back to back, `rate` ignored. */
  concurrency?: number;
}

export interface LoadRecord {
  i: number;
  op: 'intake' | 'status' | 'upload' | 'list' | 'read';
  started: number;
  ended: number;
  status?: number;
  error?: string;
  claim_id?: string;
  idempotency_key?: string;
  retry_after?: string | null;
  content_type?: string | null;
}

interface KnownClaim {
  id: string;
  token: string;
}

const spec = JSON.parse(process.env.LOAD_SPEC ?? '{}') as LoadSpec;
const out = process.env.LOAD_OUT ?? '/dev/stdout';
const claims: KnownClaim[] = [];
let stopping = false;
const inFlight = new Set<Promise<void>>();

function write(record: LoadRecord): void {
  appendFileSync(out, `${JSON.stringify(record)}\n`);
}

function codeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string } })?.cause;
  return cause?.code ?? (error as { name?: string })?.name ?? String(error);
}

async function timed(
  i: number,
  op: LoadRecord['op'],
  send: () => Promise<Response>,
  extra: Partial<LoadRecord> = {},
  annotate: (record: LoadRecord, body: any) => void = () => undefined,
): Promise<{ record: LoadRecord; body?: any }> {
  const started = Date.now();
  const record: LoadRecord = { i, op, started, ended: started, ...extra };
  let body: any;
  try {
    const response = await send();
    record.status = response.status;
    record.retry_after = response.headers.get('retry-after');
    record.content_type = response.headers.get('content-type');
    const text = await response.text();
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  } catch (error) {
    record.error = codeOf(error);
  }
  record.ended = Date.now();
  annotate(record, body);
  write(record);
  return { record, body };
}

const signal = () => AbortSignal.timeout(spec.requestTimeoutMs ?? 30000);

async function intake(i: number): Promise<KnownClaim | undefined> {
  const key = randomUUID();
  const { record, body } = await timed(
    i,
    'intake',
    () =>
      fetch(`${spec.target}/api/claims/public/claims`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(claimBody(i)),
        signal: signal(),
      }),
    { idempotency_key: key },
    (done, answer) => {
      if (done.status === 201 && typeof answer?.claim_id === 'string') done.claim_id = answer.claim_id;
    },
  );
  if (record.status === 201 && body?.claim_id) {
    const claim = { id: body.claim_id as string, token: body.access_token as string };
    claims.push(claim);
    return claim;
  }
  return undefined;
}

async function upload(i: number, claim: KnownClaim): Promise<void> {
  const { body, contentType } = multipart([
    { name: 'document_type', data: 'other' },
    { name: 'file', filename: `photo-${i}.png`, contentType: 'image/png', data: uniquePng(spec.uploadBytes ?? 0) },
  ]);
  await timed(
    i,
    'upload',
    () =>
      fetch(`${spec.target}/api/claims/public/claims/${claim.id}/attachments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${claim.token}`, 'content-type': contentType },
        body,
        signal: signal(),
      }),
    { claim_id: claim.id },
  );
}

async function one(i: number): Promise<void> {
  if (spec.mode === 'intake') {
    await intake(i);
    return;
  }
  if (spec.mode === 'intake+upload') {
    const claim = await intake(i);
    if (claim) await upload(i, claim);
    return;
  }
  const known = claims.length > 0 ? claims[i % claims.length] : undefined;
  const pick = i % 20;
  if (!known || pick < 10) await intake(i);
  else if (pick < 14) {
    await timed(
      i,
      'status',
      () =>
        fetch(`${spec.target}/api/claims/public/claims/${known.id}/status`, {
          headers: { authorization: `Bearer ${known.token}` },
          signal: signal(),
        }),
      { claim_id: known.id },
    );
  } else if (pick < 17) await upload(i, known);
  else if (pick < 19 && spec.internalToken) {
    await timed(i, 'list', () =>
      fetch(`${spec.target}/api/claims/claims?limit=10`, { headers: { authorization: spec.internalToken! }, signal: signal() }),
    );
  } else if (spec.internalToken) {
    await timed(
      i,
      'read',
      () => fetch(`${spec.target}/api/claims/claims/${known.id}`, { headers: { authorization: spec.internalToken! }, signal: signal() }),
      { claim_id: known.id },
    );
  } else await intake(i);
}

function run(i: number): Promise<void> {
  return one(i).catch((error) => write({ i, op: 'intake', started: Date.now(), ended: Date.now(), error: `generator: ${String(error)}` }));
}

async function main(): Promise<void> {
  if (out !== '/dev/stdout') writeFileSync(out, '');
  const started = Date.now();
  const more = (i: number) => i < spec.maxRequests && !stopping && Date.now() - started < spec.maxSeconds * 1000;
  if (spec.concurrency) {
    let next = 0;
    const client = async () => {
      while (more(next)) await run(next++);
    };
    await Promise.all(Array.from({ length: spec.concurrency }, client));
    process.exit(0);
  }
  const intervalMs = 1000 / spec.rate;
  for (let i = 0; more(i); i++) {
    const due = started + i * intervalMs;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (stopping) break;
    const request = run(i);
    inFlight.add(request);
    void request.finally(() => inFlight.delete(request));
  }
  await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => setTimeout(resolve, 60000))]);
  process.exit(0);
}

for (const name of ['SIGTERM', 'SIGINT'] as const) process.on(name, () => (stopping = true));
void main();
