import { randomUUID } from 'node:crypto';
import { bearer } from '@platform/testing';
import { claimBody } from './payloads';

export interface Fixtures {
  claim: { id: string; token: string };
  otherClaim: { id: string; token: string };
  controlId?: string;
  controlVersionId?: string;
  runId?: string;
}

async function createClaim(url: string, n: number): Promise<{ id: string; token: string }> {
  const response = await fetch(`${url}/api/claims/public/claims`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(claimBody(n)),
  });
  const body = (await response.json()) as { claim_id: string; access_token: string };
  if (response.status !== 201) throw new Error(`intake answered ${response.status}: ${JSON.stringify(body)}`);
  return { id: body.claim_id, token: body.access_token };
}

/** Two claims, and (when the evidence service has them) a control, its version and an open run. */
export async function createFixtures(gatewayUrl: string, evidenceWriter?: string): Promise<Fixtures> {
  const claim = await createClaim(gatewayUrl, 1);
  const otherClaim = await createClaim(gatewayUrl, 2);
  const writer = evidenceWriter ?? (await bearer('evidence:write', 'fixture-writer'));
  const fixtures: Fixtures = { claim, otherClaim };
  const control = await fetch(`${gatewayUrl}/api/evidence/controls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: writer },
    body: JSON.stringify({ key: `RES-${randomUUID().slice(0, 8)}`, title: 'Resilience control', frequency: 'monthly' }),
  });
  if (control.status === 201) {
    const body = (await control.json()) as { control_id: string; current_version: { control_version_id: string } };
    fixtures.controlId = body.control_id;
    fixtures.controlVersionId = body.current_version?.control_version_id;
    const run = await fetch(`${gatewayUrl}/api/evidence/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: writer },
      body: JSON.stringify({ control_version_id: fixtures.controlVersionId, period_start: '2026-01-01', period_end: '2026-01-31' }),
    });
    if (run.status === 201) fixtures.runId = ((await run.json()) as { run_id: string }).run_id;
  }
  return fixtures;
}

/** Fills `{param}`s: the fixture of the resource the path names, or any uuid. */
export function concretePath(path: string, fixtures: Fixtures, claim = fixtures.claim): string {
  return path.replace(/\{(\w+)\}/g, (_, _name: string, offset: number) => {
    const before = path.slice(0, offset);
    if (before.endsWith('/claims/')) return claim.id;
    if (before.endsWith('/runs/') || before.endsWith('/binders/run/')) return fixtures.runId ?? randomUUID();
    if (before.endsWith('/controls/')) return fixtures.controlId ?? randomUUID();
    return randomUUID();
  });
}
