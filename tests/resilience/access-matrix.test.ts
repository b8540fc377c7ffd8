import { signDevToken } from '@platform/auth';
import { TEST_JWT_SECRET } from '@platform/testing';
import { concretePath, createFixtures, createOwnExport, type Fixtures, type OwnExport } from './support/fixtures';
import { ALL_SCOPES, fetchOperations, type Operation } from './support/openapi';
import { writeReliability } from './support/report';
import { writeFigures } from './support/results';
import { startScenarioStack, type ScenarioStack } from './support/stack';

const ISSUER = 'https://issuer.resilience.test';

/** The scopes CONTRACT.md §2–§4 require, by operation ({…} for any path parameter). */
const CONTRACT_SCOPES: Record<string, string[]> = {
  'GET /api/claims/claims': ['claims:read'],
  'GET /api/claims/claims/{}': ['claims:read'],
  'POST /api/claims/claims/{}/run-triage': ['claims:write'],
  'POST /api/claims/claims/{}/escalations/{}/decision': ['claims:decide'],
  'POST /api/claims/claims/{}/status-updates': ['claims:write', 'claims:decide'],
  'POST /api/claims/claims/{}/generate-adjuster-kit': ['claims:write'],
  'POST /api/evidence/controls': ['evidence:write'],
  'POST /api/evidence/controls/{}/versions': ['evidence:write'],
  'POST /api/evidence/runs': ['evidence:write'],
  'POST /api/evidence/runs/{}/submit': ['evidence:write'],
  'POST /api/evidence/runs/{}/decision': ['evidence:approve'],
  'POST /api/evidence/runs/{}/evidence': ['evidence:write'],
  'POST /api/evidence/binders/run/{}': ['evidence:write'],
  'GET /api/evidence/audit/verify': ['audit:read'],
  'GET /api/evidence/audit/records': ['audit:read'],
  'GET /api/evidence/audit/checkpoints': ['audit:read'],
};

const CONTRACT_PUBLIC: Record<string, 'public' | 'claimant'> = {
  'POST /api/claims/public/claims': 'public',
  'GET /api/claims/public/claims/{}/status': 'claimant',
  'POST /api/claims/public/claims/{}/attachments': 'claimant',
};

const SETTLEMENT_UPDATE = {
  channel: 'email',
  stage: 'settlement',
  what_happened: 'We agreed the settlement amount.',
  what_happens_next: 'Payment is sent within five days.',
  what_we_need_from_you: null,
};

const keyOf = (operation: Operation) => `${operation.method} ${operation.path.replace(/\{\w+\}/g, '{}')}`;

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

interface Credential {
  name: string;
  authorization?: string;
  /** The scope this credential holds, for the single-scope rows. */
  scope?: string;
}

interface Row {
  target: 'gateway' | 'service';
  operation: string;
  credential: string;
  expected: string;
  actual: number | string;
}

describe('access matrix', () => {
  let stack: ScenarioStack | undefined;
  let fixtures: Fixtures;
  let ownExport: OwnExport;
  let operations: Operation[];

  beforeAll(async () => {
    stack = await startScenarioStack('access-matrix', { AUTH_ISSUER: ISSUER });
    operations = [...(await fetchOperations(stack.claims.url, 'claims')), ...(await fetchOperations(stack.evidence.url, 'evidence'))];
    fixtures = await createFixtures(stack.gateway.url, `Bearer ${await token({ scope: 'evidence:write', sub: 'fixture-writer' })}`);
    ownExport = await createOwnExport(stack.gateway.url);
  });

  afterAll(async () => {
    await stack?.cleanup();
    writeReliability();
  });

  const token = (options: { sub?: string; scope: string; issuer?: string; secret?: string; expiresIn?: string | number }) =>
    signDevToken({
      sub: options.sub ?? 'matrix',
      scope: options.scope,
      secret: options.secret ?? TEST_JWT_SECRET,
      issuer: options.issuer ?? ISSUER,
      expiresIn: options.expiresIn,
    });

  it('every operation of both services answers each kind of credential with the status the contract requires, through the gateway and directly', async () => {
    const started = Date.now();
    const now = Math.floor(Date.now() / 1000);
    const everything = ALL_SCOPES.join(' ');
    const invalid: Credential[] = [
      { name: 'no credentials' },
      {
        name: 'bad signature',
        authorization: `Bearer ${await token({ scope: everything, secret: 'another-secret-another-secret-another-secret' })}`,
      },
      { name: 'expired', authorization: `Bearer ${await token({ scope: everything, expiresIn: now - 120 })}` },
      {
        name: 'alg none',
        authorization: `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: 'matrix', scope: everything, iss: ISSUER, exp: now + 600 })}.`,
      },
      { name: 'wrong issuer', authorization: `Bearer ${await token({ scope: everything, issuer: 'https://evil.example' })}` },
      { name: 'no issuer', authorization: `Bearer ${await signDevToken({ sub: 'matrix', scope: everything, secret: TEST_JWT_SECRET })}` },
    ];
    const single: Credential[] = await Promise.all(
      ALL_SCOPES.map(async (scope) => ({
        name: `only ${scope}`,
        scope,
        authorization: `Bearer ${await token({ scope, sub: `matrix-${scope}` })}`,
      })),
    );
    const claimantOfAnother: Credential = { name: 'claimant token of another claim', authorization: `Bearer ${fixtures.otherClaim.token}` };
    const ownClaimant: Credential = { name: 'claimant token of this claim', authorization: `Bearer ${fixtures.claim.token}` };

    const rows: Row[] = [];
    const mismatches: string[] = [];
    const seen = new Set(operations.map(keyOf));
    for (const key of [...Object.keys(CONTRACT_SCOPES), ...Object.keys(CONTRACT_PUBLIC)])
      if (!seen.has(key)) mismatches.push(`${key} is in the contract but not in any /openapi.json`);

    for (const operation of operations) {
      const key = keyOf(operation);
      const contractScopes = CONTRACT_SCOPES[key];
      const contractGroup = CONTRACT_PUBLIC[key];
      if (contractScopes && (!Array.isArray(operation.security) || !operation.security.some((s) => contractScopes.includes(s))))
        mismatches.push(`${key}: OpenAPI security ${JSON.stringify(operation.security)}, contract ${contractScopes.join(' | ')}`);
      if (contractGroup && operation.security !== contractGroup)
        mismatches.push(`${key}: OpenAPI security ${JSON.stringify(operation.security)}, contract ${contractGroup}`);
      const group = contractGroup ?? (contractScopes ? contractScopes : operation.security);
      // a claimant's export operations act on their own export (of a portal claim); its archive opens with the download token only
      const onExport = key.includes('/exports/') && contractGroup === undefined && operation.security === 'claimant';
      const path = onExport
        ? concretePath(operation.path, { ...fixtures, exportId: ownExport.exportId }, ownExport.claim)
        : concretePath(operation.path, fixtures);
      const own: Credential = !onExport
        ? ownClaimant
        : key.endsWith('/archive')
          ? { name: 'one-time download token of this export', authorization: `Bearer ${await ownExport.downloadToken()}` }
          : { name: 'claimant token of this claim', authorization: `Bearer ${ownExport.claim.token}` };

      const cases: { credential: Credential; expected: (status: number) => boolean; describe: string }[] = [];
      if (group === 'public') {
        cases.push({ credential: invalid[0], expected: (s) => s !== 401 && s !== 403 && s < 500, describe: 'not 401/403' });
      } else if (group === 'claimant') {
        cases.push({ credential: invalid[0], expected: (s) => s === 401, describe: '401' });
        for (const credential of [...invalid.slice(1), ...single, claimantOfAnother])
          cases.push({ credential, expected: (s) => s === 404, describe: '404' });
        cases.push({ credential: own, expected: (s) => ![401, 403, 404].includes(s) && s < 500, describe: 'not 401/403/404' });
      } else {
        const scopes = group as string[];
        for (const credential of invalid) cases.push({ credential, expected: (s) => s === 401, describe: '401' });
        for (const credential of single) {
          if (scopes.includes(credential.scope!))
            cases.push({ credential, expected: (s) => s !== 401 && s !== 403 && s < 500, describe: 'not 401/403' });
          else cases.push({ credential, expected: (s) => s === 403, describe: '403' });
        }
        cases.push({ credential: claimantOfAnother, expected: (s) => s === 401, describe: '401' });
      }

      for (const target of ['gateway', 'service'] as const) {
        const base = target === 'gateway' ? stack!.gateway.url : operation.service === 'claims' ? stack!.claims.url : stack!.evidence.url;
        for (const { credential, expected, describe } of cases) {
          const headers: Record<string, string> = {};
          if (credential.authorization) headers.authorization = credential.authorization;
          let body: string | undefined;
          // A body only where the operation takes one: one sent to an operation that takes none is refused (400) before anything else.
          if (operation.requestBody) {
            headers['content-type'] = 'application/json';
            // claims:decide grants status updates into settlement (CONTRACT §2): ask for exactly that
            body =
              key === 'POST /api/claims/claims/{}/status-updates' && credential.scope === 'claims:decide'
                ? JSON.stringify(SETTLEMENT_UPDATE)
                : '{}';
          }
          let actual: number | string;
          try {
            const response = await fetch(`${base}${path}`, { method: operation.method, headers, body, signal: AbortSignal.timeout(15000) });
            await response.arrayBuffer();
            actual = response.status;
          } catch (error) {
            actual = String((error as { cause?: { code?: string } }).cause?.code ?? error);
          }
          const row = { target, operation: key, credential: credential.name, expected: describe, actual };
          rows.push(row);
          if (typeof actual !== 'number' || !expected(actual))
            mismatches.push(`${target} ${key} with ${credential.name}: expected ${describe}, got ${actual}`);
        }
      }
    }

    writeFigures({
      scenario: 'access-matrix',
      title: 'Access matrix',
      load: `${rows.length} requests: ${operations.length} operations × credentials × {gateway, direct}`,
      faults:
        'no credentials, bad signature, expired, alg none, wrong issuer, no issuer (AUTH_ISSUER set), each single scope, a claimant token of another claim',
      badInputsTried: rows.length,
      recordsLost: 0,
      duplicatesApplied: 0,
      unexpectedStatuses: mismatches.length,
      durationSeconds: (Date.now() - started) / 1000,
      notes: mismatches.slice(0, 15).map((m) => `finding: ${m}`),
    });

    expect(mismatches).toEqual([]);
    expect(operations.length).toBeGreaterThanOrEqual(Object.keys(CONTRACT_SCOPES).length + Object.keys(CONTRACT_PUBLIC).length);
  });
});
