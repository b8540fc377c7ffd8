import { randomUUID } from 'node:crypto';
import { bearer } from '@platform/testing';
import { claimBody } from './payloads';

export interface Fixtures {
  claim: { id: string; token: string };
  otherClaim: { id: string; token: string };
  controlId?: string;
  controlVersionId?: string;
  runId?: string;
  /** An export the claimant asked for (addOwnExport). */
  exportId?: string;
}

async function createClaim(url: string, n: number, overrides: Record<string, unknown> = {}): Promise<{ id: string; token: string }> {
  const response = await fetch(`${url}/api/claims/public/claims`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...claimBody(n), ...overrides }),
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

export interface OwnExport {
  /** A claim followed on the portal, whose claimant asked for a copy of their data. */
  claim: { id: string; token: string };
  exportId: string;
  /** A fresh one-time download token of the ready export (each replaces the one before). */
  downloadToken(): Promise<string>;
}

/** A portal claim whose claimant asked for their export, once it is ready to download. */
export async function createOwnExport(url: string): Promise<OwnExport> {
  const claim = await createClaim(url, 3, { preferred_channel: 'portal' });
  const exportsOf = `${url}/api/claims/public/claims/${claim.id}/exports`;
  const authorization = `Bearer ${claim.token}`;
  const requested = await fetch(exportsOf, { method: 'POST', headers: { authorization } });
  if (requested.status !== 202) throw new Error(`export request answered ${requested.status}: ${await requested.text()}`);
  const { export_id: exportId } = (await requested.json()) as { export_id: string };
  const downloadToken = async () => {
    const response = await fetch(`${exportsOf}/${exportId}/download-token`, { method: 'POST', headers: { authorization } });
    if (response.status !== 201) throw new Error(`download token answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { download_token: string }).download_token;
  };
  for (const deadline = Date.now() + 30000; ; await new Promise((resolve) => setTimeout(resolve, 250))) {
    const status = ((await (await fetch(`${exportsOf}/${exportId}`, { headers: { authorization } })).json()) as { status: string }).status;
    if (status === 'ready') break;
    if (status === 'failed' || Date.now() > deadline) throw new Error(`the fixture export is ${status}`);
  }
  return { claim, exportId, downloadToken };
}

/** Fills `{param}`s: the fixture of the resource the path names, or any uuid. */
export function concretePath(path: string, fixtures: Fixtures, claim = fixtures.claim): string {
  return path.replace(/\{(\w+)\}/g, (_, _name: string, offset: number) => {
    const before = path.slice(0, offset);
    if (before.endsWith('/claims/')) return claim.id;
    if (before.endsWith('/runs/') || before.endsWith('/binders/run/')) return fixtures.runId ?? randomUUID();
    if (before.endsWith('/controls/')) return fixtures.controlId ?? randomUUID();
    if (before.endsWith('/exports/')) return fixtures.exportId ?? randomUUID();
    return randomUUID();
  });
}
