import { randomUUID } from 'node:crypto';
import { posix } from 'node:path';
import fc from 'fast-check';
import { bearer } from '@platform/testing';
import { createDatabase, type Knex } from '@platform/db';
import { concretePath, createFixtures, type Fixtures } from './support/fixtures';
import { nastyShortString, rawBodyMutations } from './support/hostile-values';
import { ALL_SCOPES, fetchOperations, type Operation } from './support/openapi';
import { claimBody, craftedCursor, multipart, uniquePng } from './support/payloads';
import { rawRequest, sendRaw, type RawResponse } from './support/raw-http';
import { writeReliability } from './support/report';
import { writeFigures } from './support/results';
import { readiness, startScenarioStack, type ScenarioStack } from './support/stack';
import { mutatedFromSchema, refusedTimestamp } from './support/schema-arbitrary';

const RUNS = Number(process.env.RESILIENCE_RUNS ?? 10000);
const SEED = Number(process.env.RESILIENCE_SEED ?? Date.now() % 2 ** 31);
const ATTACHMENT_MAX_BYTES = 256 * 1024;
const BUDGET_MS = 170000;

/** One generated request, however it is sent. */
interface Attempt {
  kind: string;
  target: 'gateway' | 'claims' | 'evidence';
  method: string;
  path: string;
  headers: [string, string][];
  body?: Buffer;
  /** Protocol-level abuse Node itself answers (plain-text 400/431) is not held to problem+json. */
  protocolLevel?: boolean;
}

interface Failure {
  kind: string;
  request: string;
  outcome: string;
}

/** Row counts of every table a rejected request could have written to (asynchronous consumers excluded). */
async function countsQuery(db: Knex, excluded: string[]): Promise<() => Promise<Record<string, number>>> {
  const { rows } = await db.raw(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  const tables = (rows as { table_name: string }[]).map((r) => r.table_name).filter((t) => !excluded.includes(t) && !t.startsWith('knex_'));
  const special: Record<string, string> = {
    outbox: `(SELECT count(*) FROM outbox WHERE routing_key NOT IN ('evidence.audit_checkpoint'))`,
    audit_log: `(SELECT count(*) FROM audit_log WHERE source = 'evidence')`,
    // each record's leaf is written with it: the leaves of consumed claim events arrive asynchronously too
    audit_leaves: `(SELECT count(*) FROM audit_leaves JOIN audit_log USING (seq) WHERE audit_log.source = 'evidence')`,
  };
  const sql = `SELECT ${tables.map((t) => `${special[t] ?? `(SELECT count(*) FROM "${t}")`} AS "${t}"`).join(', ')}`;
  return async () => {
    if (tables.length === 0) return {};
    const result = await db.raw(sql);
    return Object.fromEntries(Object.entries(result.rows[0] as Record<string, string>).map(([k, v]) => [k, Number(v)]));
  };
}

/** Percent-encodes the UTF-8 bytes of any string (lone surrogates become U+FFFD, as a browser sends them). */
function percentEncode(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}

/** What the gateway should see the path as: decoded, dot-segments resolved, slashes collapsed, lower case. */
function isPublicPath(raw: string): boolean {
  let path = raw.split(/[?#]/)[0];
  for (let i = 0; i < 3; i++) {
    try {
      path = decodeURIComponent(path);
    } catch {
      return false;
    }
  }
  const normalised = posix.normalize(path.replace(/\\/g, '/').replace(/\/+/g, '/')).toLowerCase();
  return normalised.startsWith('/api/claims/public/');
}

function isAlive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function changed(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys(after).filter((table) => before[table] !== after[table]);
}

describe('hostile input', () => {
  let stack: ScenarioStack | undefined;
  let fixtures: Fixtures;
  let operations: Operation[];
  let claimsDb: Knex;
  let evidenceDb: Knex;

  beforeAll(async () => {
    stack = await startScenarioStack('hostile-input', {
      ATTACHMENT_MAX_BYTES: String(ATTACHMENT_MAX_BYTES),
      EVIDENCE_MAX_BYTES: String(ATTACHMENT_MAX_BYTES),
      // The diary sweep writes a claim's platform activities (timeline + event) on its own schedule; a pass
      // landing while a rejected request is counted would read as that request's partial write.
      OVERDUE_SWEEP_INTERVAL_MS: '3600000',
    });
    fixtures = await createFixtures(stack.gateway.url);
    operations = [...(await fetchOperations(stack.claims.url, 'claims')), ...(await fetchOperations(stack.evidence.url, 'evidence'))];
    claimsDb = createDatabase({ url: stack.claimsDatabaseUrl, poolMax: 2 });
    evidenceDb = createDatabase({ url: stack.evidenceDatabaseUrl, poolMax: 2 });
  });

  afterAll(async () => {
    await claimsDb?.destroy();
    await evidenceDb?.destroy();
    await stack?.cleanup();
    writeReliability();
  });

  it(`thousands of malformed, boundary and hostile requests produce no 5xx, no crash and no partial write (seed ${SEED})`, async () => {
    const started = Date.now();
    const internal = await bearer(ALL_SCOPES.join(' '), 'fuzzer');
    const urls = { gateway: stack!.gateway.url, claims: stack!.claims.url, evidence: stack!.evidence.url };
    const crashes: string[] = [];
    const claimsCounts = await countsQuery(claimsDb, []);
    // audit_tree_nodes follow from audit_leaves (checked above), so they grow with every consumed claim event
    const evidenceCounts = await countsQuery(evidenceDb, ['inbox', 'audit_checkpoints', 'audit_tree_nodes']);

    const authFor = (operation: Operation): [string, string][] =>
      operation.security === 'public'
        ? []
        : operation.security === 'claimant'
          ? [['Authorization', `Bearer ${fixtures.claim.token}`]]
          : [['Authorization', internal]];
    const targetFor = (operation: Operation, viaGateway: boolean): Attempt['target'] => (viaGateway ? 'gateway' : operation.service);

    const jsonOperations = operations.filter((o) => o.requestBody?.contentType === 'application/json');
    const intake = jsonOperations.find((o) => o.method === 'POST' && o.path === '/api/claims/public/claims');
    if (!intake) throw new Error('the claims service does not publish POST /api/claims/public/claims in its OpenAPI document');
    const queryOperations = operations.filter((o) => o.queryParameters.length > 0);
    const multipartOperations = operations.filter(
      (o) => o.requestBody?.contentType === 'multipart/form-data' || /attachments|\/evidence$/.test(o.path),
    );

    const jsonAttempt = (
      operation: Operation,
      viaGateway: boolean,
      body: Buffer,
      kind: string,
      contentType = 'application/json',
    ): Attempt => ({
      kind,
      target: targetFor(operation, viaGateway),
      method: operation.method,
      path: concretePath(operation.path, fixtures),
      headers: [
        ['Content-Type', contentType],
        ...authFor(operation),
        ...(operation === intake && Math.random() < 0.3 ? ([['Idempotency-Key', randomUUID()]] as [string, string][]) : []),
      ],
      body,
    });

    // 1. JSON bodies generated from each operation's request schema, then bent.
    const bodyArbitrary = fc.oneof(
      { weight: 3, arbitrary: fc.tuple(fc.constant(intake), mutatedFromSchema(intake.requestBody!.schema)) },
      // one arbitrary per operation, built once (building from a schema compiles its patterns: not per sample)
      { weight: 2, arbitrary: fc.oneof(...jsonOperations.map((o) => fc.tuple(fc.constant(o), mutatedFromSchema(o.requestBody!.schema)))) },
    );
    const bodyAttempts = (n: number) =>
      fc.sample(fc.tuple(bodyArbitrary, fc.boolean()), { numRuns: n, seed: SEED }).map(([[operation, body], viaGateway]) => {
        let text: string;
        try {
          text = JSON.stringify(body) ?? 'null';
        } catch {
          text = '{"unserialisable": true}';
        }
        return jsonAttempt(operation, viaGateway, Buffer.from(text, 'utf8'), 'json-body');
      });

    // 2. Raw bodies that are not quite JSON, and wrong content types.
    const rawArbitrary = fc.tuple(
      fc.constantFrom(...jsonOperations),
      fc.boolean(),
      rawBodyMutations(JSON.stringify(claimBody(7))),
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'multipart/form-data',
        '',
        'application/json, text/html',
        'APPLICATION/JSON',
      ),
    );
    const rawAttempts = (n: number) =>
      fc
        .sample(rawArbitrary, { numRuns: n, seed: SEED + 1 })
        .map(([operation, viaGateway, body, contentType]) =>
          jsonAttempt(operation, viaGateway, Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'), 'raw-body', contentType),
        );

    // 3. Query strings from each operation's parameters, with hostile values and bracket tricks.
    const queryArbitrary = fc.tuple(
      fc.constantFrom(...(queryOperations.length > 0 ? queryOperations : operations.filter((o) => o.method === 'GET'))),
      fc.boolean(),
      fc.array(
        fc.oneof(
          // crafted cursors for every list route, and timestamps PostgreSQL refuses, already percent-encoded below
          fc.tuple(fc.constant('cursor'), craftedCursor),
          fc.tuple(fc.constantFrom('created_from', 'created_to'), refusedTimestamp),
          fc.tuple(
            fc.constantFrom('action', 'entity_id', 'source', 'queue', 'q', '\u0000', 'a\u0000b'),
            fc.constantFrom('%00', 'a%00b', '%00%00', 'x%ed%a0%80', '%ed%b0%80'),
          ),
          fc.tuple(
            fc.oneof(
              fc.constantFrom(
                'stage',
                'queue',
                'escalation',
                'overdue',
                'created_from',
                'created_to',
                'limit',
                'cursor',
                'from_seq',
                'to_seq',
                'after_seq',
                'entity_id',
                'source',
                'action',
                '__proto__',
                'constructor[prototype][polluted]',
                'stage[]',
                'stage[__proto__][x]',
                'limit[$gt]',
                'a'.repeat(5000),
              ),
              nastyShortString,
            ),
            fc.oneof(
              nastyShortString,
              fc.constantFrom(
                '0',
                '-1',
                '101',
                '1e3',
                '2026-02-30',
                'open',
                'true',
                'intake',
                'claims',
                '%',
                '%zz',
                '%00',
                '%ff%fe',
                '1'.repeat(400),
              ),
            ),
          ),
        ),
        { minLength: 1, maxLength: 8 },
      ),
    );
    const queryAttempts = (n: number) =>
      fc.sample(queryArbitrary, { numRuns: n, seed: SEED + 2 }).map(([operation, viaGateway, pairs]): Attempt => {
        const query = pairs
          .map(([k, v]) => (/^%[^\s]*$/.test(v) ? `${percentEncode(k)}=${v}` : `${percentEncode(k)}=${percentEncode(v)}`))
          .join('&');
        return {
          kind: 'query',
          target: targetFor(operation, viaGateway),
          method: 'GET',
          path: `${concretePath(operation.path, fixtures).split('?')[0]}?${query}`,
          headers: authFor(operation),
        };
      });

    // 4. Headers no client library would send.
    const headerArbitrary = fc.tuple(
      fc.constantFrom(intake, ...operations),
      fc.boolean(),
      fc.constantFrom<[string, string][]>(
        [['Idempotency-Key', '']],
        [['Idempotency-Key', 'k'.repeat(300)]],
        [['Idempotency-Key', 'ключ-ü-🔑']],
        [['Idempotency-Key', 'a\tb']],
        [
          ['Idempotency-Key', 'a'],
          ['Idempotency-Key', 'b'],
        ],
        [['Authorization', 'Bearer ']],
        [['Authorization', 'Bearer a.b.c']],
        [['Authorization', `Bearer ${'x'.repeat(8000)}`]],
        [['Authorization', 'Basic YWxpY2U6c2VjcmV0']],
        [['Authorization', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4Iiwic2NvcGUiOiJhdWRpdDpyZWFkIn0.']],
        [['Authorization', 'bearer\u00a0token']],
        [['Content-Type', 'application/json; charset=utf-32']],
        [['Content-Type', 'multipart/form-data']],
        [['Content-Type', 'multipart/form-data; boundary=']],
        [['Content-Type', `multipart/form-data; boundary=${'b'.repeat(500)}`]],
        [['Content-Encoding', 'gzip']],
        [['Content-Encoding', 'br, gzip, deflate']],
        [['Transfer-Encoding', 'chunked']],
        [['X-Forwarded-For', '1.2.3.4, 127.0.0.1']],
        [
          ['X-User-Id', 'admin'],
          ['X-Internal-Scopes', ALL_SCOPES.join(' ')],
        ],
        [['X-Request-Id', '\u00ff'.repeat(500)]],
        [['X-Request-Id', '../../etc/passwd']],
        [['X-Huge', 'h'.repeat(20000)]],
        [['Accept', '*/*;q=ü']],
        [['Expect', '100-continue']],
        [['Range', 'bytes=0-1,1-2']],
        // text PostgreSQL cannot store, where Node lets it through (it refuses NUL and control characters itself)
        [['X-Request-Id', 'a\u0000b']],
        [['Idempotency-Key', '\u0000'.repeat(36)]],
        [['Idempotency-Key', '\u00ed\u00a0\u0080'.repeat(12)]],
        [['Authorization', 'Bearer \u0000']],
      ),
    );
    const headerAttempts = (n: number) =>
      fc.sample(headerArbitrary, { numRuns: n, seed: SEED + 3 }).map(([operation, viaGateway, extra]): Attempt => {
        const chunked = extra.some(([name]) => name === 'Transfer-Encoding');
        const payload = Buffer.from(JSON.stringify(claimBody(3)));
        const body = chunked
          ? Buffer.from(`5\r\n{"a":\r\nzz\r\nnot hex\r\n0\r\n\r\n`)
          : extra.some(([name]) => name === 'Content-Encoding')
            ? Buffer.from('not compressed at all')
            : payload;
        const hasType = extra.some(([name]) => name === 'Content-Type');
        const hasAuth = extra.some(([name]) => name === 'Authorization');
        return {
          kind: 'header',
          target: targetFor(operation, viaGateway),
          method: operation.method,
          path: concretePath(operation.path, fixtures),
          headers: [
            ...(hasType ? [] : ([['Content-Type', 'application/json']] as [string, string][])),
            ...(hasAuth ? [] : authFor(operation)),
            ...extra,
          ],
          // a declared chunked body is always sent (a client that never sends it is a slow client, not bad input)
          body: operation.method === 'GET' && !chunked ? undefined : body,
          protocolLevel: true,
        };
      });

    // 5. Multipart streams: many parts, truncated parts, wrong boundaries, NUL bytes, traversal names, oversize.
    const png = uniquePng();
    const multipartArbitrary = fc.tuple(
      fc.constantFrom(...(multipartOperations.length > 0 ? multipartOperations : [intake])),
      fc.boolean(),
      fc.constantFrom(
        'many-parts',
        'truncated',
        'wrong-boundary',
        'nul-names',
        'traversal',
        'huge-field',
        'oversize',
        'wrong-bytes',
        'empty-file',
        'no-file',
        'no-disposition',
        'nested-multipart',
        'unicode-name',
        'many-fields',
        'refused-timestamp',
        'unstorable-text',
      ),
      fc.integer({ min: 1, max: 1000 }),
    );
    const multipartAttempts = (n: number) =>
      fc.sample(multipartArbitrary, { numRuns: n, seed: SEED + 4 }).map(([operation, viaGateway, shape, k]): Attempt => {
        const boundary = `----fuzz${k}`;
        const file = (filename = 'photo.png', data: Buffer = png) => ({ name: 'file', filename, contentType: 'image/png', data });
        const fields =
          operation.service === 'evidence'
            ? [
                { name: 'kind', data: 'record' },
                { name: 'title', data: 'Fuzzed evidence' },
              ]
            : [{ name: 'document_type', data: 'other' }];
        let built: { body: Buffer; contentType: string };
        switch (shape) {
          case 'many-parts':
            built = multipart([...fields, ...Array.from({ length: 11 + (k % 190) }, (_, i) => file(`p${i}.png`, uniquePng()))], boundary);
            break;
          case 'truncated': {
            const whole = multipart([...fields, file()], boundary);
            built = {
              body: whole.body.subarray(0, Math.max(1, Math.floor((whole.body.length * (k % 100)) / 100))),
              contentType: whole.contentType,
            };
            break;
          }
          case 'wrong-boundary':
            built = { body: multipart([...fields, file()], boundary).body, contentType: `multipart/form-data; boundary=other${k}` };
            break;
          case 'nul-names':
            built = multipart([{ name: 'document_type\u0000', data: 'other\u0000' }, file(`a\u0000.png`)], boundary);
            break;
          case 'traversal':
            built = multipart(
              [
                ...fields,
                file(
                  [
                    '../../../../tmp/pwned.png',
                    '..\\..\\evil.png',
                    '/etc/passwd',
                    'C:\\x.png',
                    '.',
                    '..',
                    '%2e%2e%2fx.png',
                    'x'.repeat(5000),
                  ][k % 8],
                ),
              ],
              boundary,
            );
            break;
          case 'huge-field':
            built = multipart([...fields, { name: 'description', data: 'D'.repeat(2 * 1024 * 1024) }, file()], boundary);
            break;
          case 'oversize':
            built = multipart([...fields, file('big.png', Buffer.concat([png, Buffer.alloc(ATTACHMENT_MAX_BYTES + 1024, 7)]))], boundary);
            break;
          case 'wrong-bytes':
            built = multipart(
              [
                ...fields,
                {
                  name: 'file',
                  filename: 'photo.png',
                  contentType: 'image/png',
                  data: [Buffer.from('MZ\x90\x00'), Buffer.from('<html><script>x</script>'), Buffer.from('%PDF-'), Buffer.from('\x89PNG')][
                    k % 4
                  ],
                },
              ],
              boundary,
            );
            break;
          case 'empty-file':
            built = multipart([...fields, file('empty.png', Buffer.alloc(0))], boundary);
            break;
          case 'no-file':
            built = multipart(fields, boundary);
            break;
          case 'no-disposition':
            built = {
              body: Buffer.from(
                `--${boundary}\r\nContent-Type: image/png\r\n\r\n${png.toString('latin1')}\r\n--${boundary}--\r\n`,
                'latin1',
              ),
              contentType: `multipart/form-data; boundary=${boundary}`,
            };
            break;
          case 'nested-multipart':
            built = multipart(
              [
                ...fields,
                {
                  name: 'file',
                  filename: 'x.png',
                  contentType: 'multipart/mixed; boundary=inner',
                  data: `--inner\r\n\r\n${'x'.repeat(100)}\r\n--inner--`,
                },
              ],
              boundary,
            );
            break;
          case 'refused-timestamp':
            built = multipart(
              [...fields, { name: 'collected_at', data: fc.sample(refusedTimestamp, { numRuns: 1, seed: k })[0] }, file()],
              boundary,
            );
            break;
          case 'unstorable-text': {
            // NUL, and a lone surrogate as the bytes a careless encoder writes (CESU-8), in a field value and in the file name
            const lone = Buffer.from([0xed, 0xa0, 0x80]).toString('latin1');
            const [description, filename] = [
              ['nul\u0000here', 'ok.png'],
              [`x${lone}y`, 'ok.png'],
              ['ok', 'a\u0000.png'],
              ['\u0000', '\u0000'],
            ][k % 4];
            built = multipart([...fields, { name: 'description', data: Buffer.from(description, 'latin1') }, file(filename)], boundary);
            break;
          }
          case 'unicode-name':
            built = multipart([...fields, file(['\u202egnp.exe', 'ÿ'.repeat(300), '😀.png', 'con.png', 'a\r\nb.png'][k % 5])], boundary);
            break;
          default:
            built = multipart([...Array.from({ length: 500 + k }, (_, i) => ({ name: `f${i}`, data: 'v' })), file()], boundary);
        }
        const auth: [string, string][] =
          operation.security === 'claimant' ? [['Authorization', `Bearer ${fixtures.claim.token}`]] : [['Authorization', internal]];
        return {
          kind: `multipart:${shape}`,
          target: targetFor(operation, viaGateway),
          method: 'POST',
          path: concretePath(operation.path, fixtures),
          headers: [['Content-Type', built.contentType], ...auth],
          body: built.body,
        };
      });

    // 6. Paths the gateway must normalise (or refuse) before deciding the access group; no credentials.
    const pathArbitrary = fc.tuple(
      fc.constantFrom(
        '/api/claims/public/../claims',
        '/api/claims/public/%2e%2e/claims',
        '/api/claims/public/%2E%2E/claims',
        '/api//claims//claims',
        '/API/CLAIMS/claims',
        '/api/claims/public/..%2fclaims',
        '/api/claims/public/%2e%2e%2fclaims',
        '/api/claims/public/claims/../../../evidence/audit/verify',
        '/api/claims/public/%252e%252e/claims',
        '/api/claims/public/%c0%ae%c0%ae/claims',
        '/api/evidence/./audit/verify',
        '/api/evidence/audit/verify%00',
        '/api/claims/claims;/x',
        '/api/claims/public\\..\\claims',
        '/%2e%2e/%2e%2e/etc/passwd',
        '/api/claims/public/claims/%ff',
        '/api/claims/public/claims/' + 'a'.repeat(9000),
        '/api/evidence/audit/../audit/records',
        '/api/claims/public/./../claims',
        '/api/claims/public/claims/%00/status',
        '//127.0.0.1/api/claims/claims',
        '/api/claims/claims#x',
        '/api/claims/claims?x=%',
      ),
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE'),
    );
    const pathAttempts = (n: number) =>
      fc
        .sample(pathArbitrary, { numRuns: n, seed: SEED + 5 })
        .map(([path, method]): Attempt => ({ kind: 'path', target: 'gateway', method, path, headers: [], protocolLevel: true }));

    // 7. Path parameters holding text PostgreSQL cannot store, or that is not UTF-8 at all, with credentials.
    const parameterised = operations.filter((o) => o.path.includes('{'));
    const pathParamArbitrary = fc.tuple(
      fc.constantFrom(...parameterised),
      fc.boolean(),
      fc.constantFrom(
        '%00',
        'a%00b',
        `${randomUUID()}%00`,
        '%00'.repeat(36),
        '%ed%a0%80',
        '%ed%b0%80',
        '%c0%80',
        '%ff',
        '%2e%2e',
        '%252e',
        'x'.repeat(300),
      ),
    );
    const pathParamAttempts = (n: number) =>
      fc.sample(pathParamArbitrary, { numRuns: n, seed: SEED + 6 }).map(([operation, viaGateway, segment]): Attempt => ({
        kind: 'path-param',
        target: targetFor(operation, viaGateway),
        method: operation.method,
        path: concretePath(operation.path.replace(/\{\w+\}/, segment), fixtures),
        headers: [
          ...(operation.requestBody?.contentType === 'application/json'
            ? ([['Content-Type', 'application/json']] as [string, string][])
            : []),
          ...authFor(operation),
        ],
        body: operation.requestBody ? Buffer.from('{}') : undefined,
      }));

    const generatingAt = Date.now();
    const share = (fraction: number) => Math.max(1, Math.round(RUNS * fraction));
    const attempts: Attempt[] = [
      ...bodyAttempts(share(0.3)),
      ...rawAttempts(share(0.15)),
      ...queryAttempts(share(0.15)),
      ...headerAttempts(share(0.1)),
      ...multipartAttempts(share(0.15)),
      ...pathAttempts(share(0.1)),
      ...pathParamAttempts(share(0.05)),
    ];
    // interleave the kinds (seeded) so a slow stretch cannot starve any of them of the time budget
    let state = SEED || 1;
    for (let i = attempts.length - 1; i > 0; i--) {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      const j = state % (i + 1);
      [attempts[i], attempts[j]] = [attempts[j], attempts[i]];
    }

    const generationMs = Date.now() - generatingAt;
    const failures: Failure[] = [];
    const byKind = new Map<string, number>();
    let tried = 0;
    let requestMs = 0;
    let countMs = 0;
    let unexpectedStatuses = 0;
    let partialWrites = 0;
    let notProblemJson = 0;
    let claimsBefore = await claimsCounts();
    let evidenceBefore = await evidenceCounts();
    const fail = (attempt: Attempt, outcome: string) => {
      const headerNames =
        attempt.kind === 'header' ? ` [${attempt.headers.map(([name, value]) => `${name}: ${value.slice(0, 40)}`).join('; ')}]` : '';
      if (failures.length < 200)
        failures.push({
          kind: attempt.kind,
          request: `${attempt.method} ${attempt.target}${attempt.path.slice(0, 200)}${headerNames}`,
          outcome,
        });
    };
    for (const attempt of attempts) {
      if (Date.now() - started > BUDGET_MS) break;
      tried += 1;
      byKind.set(attempt.kind.split(':')[0], (byKind.get(attempt.kind.split(':')[0]) ?? 0) + 1);
      const request = rawRequest(attempt.method, attempt.path, attempt.headers, attempt.body);
      const sentAt = Date.now();
      const response: RawResponse = await sendRaw(urls[attempt.target], request);
      requestMs += Date.now() - sentAt;
      // Node answers a head over its 16 KiB limit with 431 and closes at once; a client still writing sees a reset.
      const oversizedHead = request.indexOf('\r\n\r\n') > 16 * 1024;
      if (response.status === undefined && oversizedHead && /ECONNRESET|EPIPE/.test(response.error ?? '')) {
        // accepted: refused at the protocol level before any application code ran
      } else if (response.status === undefined) {
        unexpectedStatuses += 1;
        fail(attempt, `no answer (${response.error}) after ${response.ms} ms`);
      } else if (response.status >= 500) {
        unexpectedStatuses += 1;
        fail(attempt, `${response.status} ${response.body.slice(0, 300)}`);
      } else if (attempt.kind === 'path' && response.status < 300 && !isPublicPath(attempt.path) && attempt.method !== 'OPTIONS') {
        unexpectedStatuses += 1;
        fail(attempt, `${response.status} without credentials`);
      } else if (
        response.status >= 400 &&
        !attempt.protocolLevel &&
        !(response.headers['content-type'] ?? '').startsWith('application/problem+json')
      ) {
        notProblemJson += 1;
        unexpectedStatuses += 1;
        fail(attempt, `${response.status} with Content-Type ${response.headers['content-type']}`);
      }
      const countedAt = Date.now();
      const [claimsAfter, evidenceAfter] = await Promise.all([claimsCounts(), evidenceCounts()]);
      countMs += Date.now() - countedAt;
      if (response.status === undefined || response.status >= 300) {
        const touched = [
          ...changed(claimsBefore, claimsAfter).map((t) => `claims.${t}`),
          ...changed(evidenceBefore, evidenceAfter).map((t) => `evidence.${t}`),
        ];
        if (touched.length > 0) {
          partialWrites += 1;
          fail(attempt, `rejected with ${response.status ?? response.error} but changed ${touched.join(', ')}`);
        }
      }
      claimsBefore = claimsAfter;
      evidenceBefore = evidenceAfter;
      // A process that died on this request is a crash: name the request, restart the process, go on.
      for (const name of ['gateway', 'claims', 'evidence'] as const) {
        if (isAlive(stack![name].pid())) continue;
        const exitCode = await stack![name].signal('SIGTERM');
        crashes.push(
          `${name} exited (code ${exitCode}) after ${attempt.kind} ${attempt.method} ${attempt.target}${attempt.path.slice(0, 120)}; output: ${stack![name].output().slice(-600).replace(/\s+/g, ' ')}`,
        );
        if (crashes.length > 5) break;
        await stack![name].start();
        if (name !== 'gateway')
          await Promise.all([claimsCounts().then((c) => (claimsBefore = c)), evidenceCounts().then((c) => (evidenceBefore = c))]);
      }
      if (crashes.length > 5) break;
    }

    const ready = {
      gateway: await readiness(urls.gateway),
      claims: await readiness(urls.claims),
      evidence: await readiness(urls.evidence),
    };
    const crashed = crashes.length > 0 || Object.values(ready).some((status) => status !== 200);

    writeFigures({
      scenario: 'hostile-input',
      title: 'Hostile input (fast-check)',
      load: `${tried} generated requests, one at a time, through the gateway and directly (${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}); ${operations.length} operations from /openapi.json`,
      faults: `malformed, boundary and hostile bodies, query strings, headers, multipart streams and paths (seed ${SEED})`,
      badInputsTried: tried,
      recordsLost: 0,
      // a rejected request that changed rows applied an effect it must not have: counted here
      duplicatesApplied: partialWrites,
      unexpectedStatuses: unexpectedStatuses + (crashed ? 1 : 0),
      durationSeconds: (Date.now() - started) / 1000,
      notes: [
        ...crashes.map((crash) => `finding: crash — ${crash}`),
        `time spent: generating ${(generationMs / 1000).toFixed(1)} s, requests ${(requestMs / 1000).toFixed(1)} s, row-count checks ${(countMs / 1000).toFixed(1)} s`,
        `processes alive and ready afterwards: ${!crashed} (${Object.entries(ready)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}); rejected requests that changed rows: ${partialWrites}; 4xx without problem+json: ${notProblemJson}`,
        ...failures.slice(0, 8).map((f) => `finding: ${f.kind} ${f.request} → ${f.outcome}`),
      ],
    });

    expect(crashes).toEqual([]);
    expect(failures.slice(0, 30)).toEqual([]);
    expect(crashed).toBe(false);
    expect(tried).toBeGreaterThan(Math.min(RUNS, 500) * 0.9);
  }, 400000);
});
