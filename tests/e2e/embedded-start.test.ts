import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { networkInterfaces } from 'node:os';
import request from 'supertest';
import { bearer, binaryBody, createEvidenceRun, eventually } from '@platform/testing';
import { auditRecordsOfClaim, ownPolicyFnol, reportLoss } from './fnol';
import { startPlatform, type PlatformProcess } from './platform-process';

const SECRET = 'embedded-test-secret-0123456789abcdef';

/** The claimant's portal link in the acknowledgement of a new claim, and the claim's id. */
async function statusLinkOfNewClaim(gatewayUrl: string) {
  const response = await request(gatewayUrl).post('/api/claims/public/claims').send(ownPolicyFnol()).expect(201);
  return { claimId: response.body.claim_id as string, link: response.body.status.portal_url as string };
}

describe('pnpm start with no configuration (embedded PGlite, in-process bus)', () => {
  let platform: PlatformProcess;

  beforeAll(async () => {
    platform = await startPlatform({ AUTH_JWT_SECRET: SECRET });
  }, 120000);
  afterAll(async () => {
    await platform?.stop();
  });

  it('prints one ready line with the URLs, the databases and the bus as they are', () => {
    expect(platform.readyLine).toContain(platform.gatewayUrl.replace('127.0.0.1', 'localhost'));
    expect(platform.readyLine).toContain(`claims ${platform.claimsUrl}`);
    expect(platform.readyLine).toContain(`evidence ${platform.evidenceUrl}`);
    expect(platform.readyLine).toMatch(/databases: embedded PGlite in .* · bus: in-process event bus$/);
  });

  it('hands out links to the port the gateway was started on', async () => {
    const { claimId, link } = await statusLinkOfNewClaim(platform.gatewayUrl);
    expect(link).toBe(`${platform.gatewayUrl.replace('127.0.0.1', 'localhost')}/portal/claims/${claimId}`);
  });

  it('runs a witness of the audit log that cosigns a checkpoint within seconds, its verifier key on the ready line', async () => {
    const witnessKey = /· witness (\S+) ·/.exec(platform.readyLine)?.[1];
    expect(witnessKey).toMatch(/^claims-platform-witness\+[0-9a-f]{8}\+/);
    await statusLinkOfNewClaim(platform.gatewayUrl); // a claim: records in the log to sign and cosign
    const auditor = await bearer('audit:read', 'examiner', { secret: SECRET });
    const note = await eventually(async () => {
      const response = await fetch(`${platform.gatewayUrl}/api/evidence/audit/checkpoint`, { headers: { Authorization: auditor } });
      const text = await response.text();
      return response.status === 200 && text.includes('\n— claims-platform-witness ') && text;
    }, 15000);
    expect(note.split('\n')[0]).toBe('evidence.claims-platform/audit-log');
  });

  it('offers no development sign-in once an operator configured AUTH_JWT_SECRET: no token is minted with a secret a deployment trusts', async () => {
    expect((await (await fetch(`${platform.gatewayUrl}/workbench/config.json`)).json()).development_sign_in).toBe(false);
    const minted = await fetch(`${platform.gatewayUrl}/workbench/dev-token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ sub: 'mallory', scope: 'claims:decide' }),
    });
    expect(minted.status).toBe(404);
  });

  it('binds the services to loopback only, so clients cannot go around the gateway', async () => {
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal);
    const port = Number(new URL(platform.claimsUrl).port);
    const reachable = (host: string) =>
      new Promise<boolean>((resolve) => {
        const socket = connect({ host, port }, () => resolve(socket.destroy() && true)).on('error', () => resolve(false));
      });
    expect(await reachable('127.0.0.1')).toBe(true);
    // Without a non-loopback interface there is nothing else to try; the ready line still shows the bound address.
    if (outside) expect(await reachable(outside.address)).toBe(false);
  });

  it('answers /readyz through the gateway and at each service', async () => {
    await request(platform.gatewayUrl).get('/readyz').expect(200);
    await request(platform.claimsUrl).get('/readyz').expect(200);
    await request(platform.evidenceUrl).get('/readyz').expect(200);
  });

  it('carries a claim from intake through the in-process bus into the evidence audit log', async () => {
    const claim = await reportLoss(platform.gatewayUrl);
    const auditor = await bearer('audit:read', 'examiner', { secret: SECRET });
    const records = await eventually(async () => {
      const found = await auditRecordsOfClaim(platform.gatewayUrl, auditor, claim.claim_id);
      return found.length > 0 && found;
    }, 15000);
    expect(records.map((record) => record.action)).toEqual(['claim.created']);
  });

  it('searches claims with pg_trgm (a misspelt name) and takes one with If-Match on PGlite', async () => {
    const claim = await reportLoss(
      platform.gatewayUrl,
      ownPolicyFnol({ claimant: { name: 'Wilhelmina Oyelaran', email: 'wo@example.com' } }),
    );
    const adjuster = await bearer('claims:read claims:write', 'adjuster-1', { secret: SECRET });
    const found = await request(platform.gatewayUrl)
      .get('/api/claims/claims')
      .query({ q: 'Wilhelmina Oyelaren' })
      .set('Authorization', adjuster)
      .expect(200);
    expect(found.body.items[0].claim_id).toBe(claim.claim_id);
    // the name read nearest first (GiST k-nearest, migration 0012): two equal matches page newest first, one at a time
    const namesake = await reportLoss(
      platform.gatewayUrl,
      ownPolicyFnol({ claimant: { name: 'Wilhelmina Oyelowo', email: 'wo2@example.com' } }),
    );
    const first = await request(platform.gatewayUrl)
      .get('/api/claims/claims')
      .query({ q: 'Wilhelmina Oye', limit: 1 })
      .set('Authorization', adjuster)
      .expect(200);
    const second = await request(platform.gatewayUrl)
      .get('/api/claims/claims')
      .query({ q: 'Wilhelmina Oye', limit: 1, cursor: first.body.next_cursor })
      .set('Authorization', adjuster)
      .expect(200);
    expect([...first.body.items, ...second.body.items].map((item: { claim_id: string }) => item.claim_id)).toEqual([
      namesake.claim_id,
      claim.claim_id,
    ]);
    expect(second.body.next_cursor).toBeNull();
    const read = await request(platform.gatewayUrl).get(`/api/claims/claims/${claim.claim_id}`).set('Authorization', adjuster).expect(200);
    const take = (etag: string) =>
      request(platform.gatewayUrl)
        .put(`/api/claims/claims/${claim.claim_id}/assignee`)
        .set('Authorization', adjuster)
        .set('If-Match', etag)
        .send({ assignee: 'adjuster-1' });
    await take(read.headers.etag).expect(200);
    await take(read.headers.etag).expect(409);
    const mine = await request(platform.gatewayUrl)
      .get('/api/claims/claims')
      .query({ assignee: 'me', q: 'oyelaran' })
      .set('Authorization', adjuster)
      .expect(200);
    expect(mine.body.items.map((item: { claim_id: string }) => item.claim_id)).toEqual([claim.claim_id]);
  });

  it("keeps deadlines in the claim's time zone, lists breaches and deliveries, and publishes a triage policy on PGlite", async () => {
    const api = () => request(platform.gatewayUrl);
    const adjuster = await bearer('claims:read claims:write', 'adjuster-2', { secret: SECRET });
    const supervisor = await bearer('claims:read claims:decide', 'supervisor-2', { secret: SECRET });
    const claim = await reportLoss(platform.gatewayUrl, ownPolicyFnol({ time_zone: 'Asia/Tokyo' }));
    await api()
      .post(`/api/claims/claims/${claim.claim_id}/status-updates`)
      .set('Authorization', adjuster)
      .send({ channel: 'portal', stage: 'intake', what_happened: 'We opened your file', what_happens_next: 'An adjuster reviews it' })
      .expect(201);
    const file = await api().get(`/api/claims/claims/${claim.claim_id}`).set('Authorization', adjuster).expect(200);
    // no date promised: the default cadence (5 days), to the end of that day in Tokyo (UTC+9, no DST)
    const tokyoToday = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
    const due = new Date(`${tokyoToday}T00:00:00+09:00`);
    due.setUTCDate(due.getUTCDate() + 6);
    expect(file.body.claim).toMatchObject({ time_zone: 'Asia/Tokyo', next_update_due: due.toISOString() });
    for (const deadline of ['acknowledgement', 'first_contact', 'next_update']) {
      const breached = await api().get('/api/claims/claims').query({ overdue: true, deadline }).set('Authorization', adjuster).expect(200);
      expect(breached.body.items.map((item: { claim_id: string }) => item.claim_id)).not.toContain(claim.claim_id);
    }
    await api().get('/api/claims/claims').query({ delivery_failed: true }).set('Authorization', adjuster).expect(200);
    const deliveries = await eventually(async () => {
      const response = await api().get(`/api/claims/claims/${claim.claim_id}/deliveries`).set('Authorization', adjuster).expect(200);
      return (
        response.body.items.length === 2 &&
        response.body.items.every((item: { status: string }) => item.status === 'sent') &&
        response.body.items
      );
    });
    expect(deliveries.map((item: { channel: string }) => item.channel)).toEqual(['email', 'portal']);

    const policy = await api().get('/api/claims/triage-policy').set('Authorization', adjuster).expect(200);
    const next = { ...policy.body, version: `${policy.body.version}-embedded`, description: 'Republished on PGlite' };
    for (const key of ['gates', 'active', 'published_by', 'published_at']) delete next[key];
    await api().post('/api/claims/triage-policy/versions').set('Authorization', supervisor).send(next).expect(201);
    const current = await api().get('/api/claims/triage-policy').set('Authorization', adjuster).expect(200);
    expect(current.body).toMatchObject({ version: next.version, published_by: 'supervisor-2', active: true });
  });

  it('builds an evidence binder and streams its zip on PGlite', async () => {
    const writer = await bearer('evidence:write', 'writer', { secret: SECRET });
    const examiner = await bearer('audit:read', 'examiner', { secret: SECRET });
    const api = () => request(platform.gatewayUrl);
    const runId = await createEvidenceRun(platform.gatewayUrl, writer, {
      control: { key: 'EMB-1', title: 'Backups' },
      period: { start: '2026-10-01', end: '2026-10-31' },
      notes: [{ title: 'Restore log' }, { title: 'Second restore' }],
    });
    const binder = await api().post(`/api/evidence/binders/run/${runId}`).set('Authorization', writer).expect(201);
    expect(binder.body.manifest.evidence.map((item: { title: string }) => item.title)).toEqual(['Restore log', 'Second restore']);
    expect(binder.body.download_url).toBe(
      `${platform.gatewayUrl.replace('127.0.0.1', 'localhost')}/api/evidence/binder-archives/${binder.body.binder_id}`,
    );
    const zip = await api()
      .get(`/api/evidence/binder-archives/${binder.body.binder_id}`)
      .set('Authorization', examiner)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    const bytes = zip.body as Buffer;
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    for (const name of ['manifest.json', 'audit.jsonl', 'index.html', 'SHA256SUMS']) expect(bytes.includes(Buffer.from(name))).toBe(true);
  });

  it('builds, the moment a run is approved, a binder that verifies with verify.mjs against the pinned service and witness keys', async () => {
    const writer = await bearer('evidence:write', 'writer', { secret: SECRET });
    const approver = await bearer('evidence:approve', 'approver', { secret: SECRET });
    const auditor = await bearer('audit:read', 'examiner', { secret: SECRET });
    const api = () => request(platform.gatewayUrl);
    const runId = await createEvidenceRun(platform.gatewayUrl, writer, {
      control: { key: 'EMB-2', title: 'Access reviews' },
      period: { start: '2026-10-01', end: '2026-10-31' },
      notes: [{ title: 'Review signed off' }],
      submit: true,
    });
    await api()
      .post(`/api/evidence/runs/${runId}/decision`)
      .set('Authorization', approver)
      .send({ decision: 'approved', rationale: 'Complete' })
      .expect(201);
    const binder = await api().post(`/api/evidence/binders/run/${runId}`).set('Authorization', writer).expect(201);
    expect(binder.body.final).toBe(true);
    const zip = await api()
      .get(`/api/evidence/binder-archives/${binder.body.binder_id}`)
      .set('Authorization', auditor)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    const serviceKey = (await api().get('/api/evidence/audit/public-key').set('Authorization', auditor).expect(200)).headers[
      'x-audit-verifier-key'
    ];
    const witnessKey = /· witness (\S+) ·/.exec(platform.readyLine)![1];
    const dir = mkdtempSync(path.join(tmpdir(), 'binder-'));
    try {
      writeFileSync(path.join(dir, 'binder.zip'), zip.body as Buffer);
      const verifier = path.resolve(__dirname, '../../services/evidence/src/features/binders/verifier/verify.mjs');
      const result = spawnSync(process.execPath, [verifier, 'binder.zip', '--service-key', serviceKey, '--witness-key', witnessKey], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(result.stdout).toContain('Binder verified.');
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Under knex-pglite a delete answered a result object, not a count, so every placement's settle failed: 503 on every upload.
  it("accepts a claimant's photo and an evidence PDF with 201 on PGlite, and the claimant sees the file", async () => {
    const claim = await reportLoss(platform.gatewayUrl);
    const photo = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const attached = await request(platform.gatewayUrl)
      .post(`/api/claims/public/claims/${claim.claim_id}/attachments`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .field('document_type', 'photos_of_damage')
      .attach('file', photo, { filename: 'windscreen.png', contentType: 'image/png' });
    expect([attached.status, attached.body.attachments]).toEqual([
      201,
      [expect.objectContaining({ filename: 'windscreen.png', duplicate: false })],
    ]);
    const status = await request(platform.gatewayUrl)
      .get(`/api/claims/public/claims/${claim.claim_id}/status`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .expect(200);
    expect(status.body.attachments).toEqual([expect.objectContaining({ filename: 'windscreen.png', size_bytes: photo.length })]);

    const writer = await bearer('evidence:write', 'writer', { secret: SECRET });
    const runId = await createEvidenceRun(platform.gatewayUrl, writer, {
      control: { key: 'EMB-FILE', title: 'Restores' },
      period: { start: '2026-10-01', end: '2026-10-31' },
      notes: [],
    });
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
    const evidence = await request(platform.gatewayUrl)
      .post(`/api/evidence/runs/${runId}/evidence`)
      .set('Authorization', writer)
      .field('title', 'Restore report')
      .attach('file', pdf, { filename: 'restore.pdf', contentType: 'application/pdf' });
    expect([evidence.status, evidence.body]).toEqual([201, expect.objectContaining({ kind: 'file', size_bytes: pdf.length })]);
  });

  it('exits cleanly on SIGTERM', async () => {
    const code = await platform.stop();
    expect(code).toBe(0);
    platform = undefined as unknown as PlatformProcess;
  });
});

describe('links handed out under pnpm start', () => {
  let platform: PlatformProcess | undefined;
  afterEach(async () => {
    await platform?.stop();
    platform = undefined;
  });

  it('name the port actually bound when GATEWAY_PORT is 0', async () => {
    platform = await startPlatform({ GATEWAY_PORT: '0' });
    const gatewayUrl = platform.readyLine.match(/gateway (http:\/\/localhost:\d+)/)![1];
    expect(gatewayUrl).not.toBe('http://localhost:0');
    const { claimId, link } = await statusLinkOfNewClaim(gatewayUrl);
    expect(link).toBe(`${gatewayUrl}/portal/claims/${claimId}`);
    // With nothing configured, a newcomer signs in to the pages by picking a user (on the documented development secret).
    const signIn = await (await fetch(`${gatewayUrl}/workbench/config.json`)).json();
    expect(signIn.development_sign_in).toBe(true);
    const minted = await fetch(`${gatewayUrl}/workbench/dev-token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ sub: 'examiner-dev', scope: 'audit:read' }),
    });
    expect(minted.status).toBe(200);
  }, 120000);

  it('follow PUBLIC_BASE_URL when it is set', async () => {
    platform = await startPlatform({ PUBLIC_BASE_URL: 'https://claims.example.com' });
    const { claimId, link } = await statusLinkOfNewClaim(platform.gatewayUrl);
    expect(link).toBe(`https://claims.example.com/portal/claims/${claimId}`);
  }, 120000);
});

describe('pnpm start in production mode', () => {
  it('refuses the embedded defaults and the development secret', async () => {
    await expect(startPlatform({ NODE_ENV: 'production' }, 30000)).rejects.toThrow(/exited with 1[\s\S]*must be set in production/);
  }, 40000);
});
