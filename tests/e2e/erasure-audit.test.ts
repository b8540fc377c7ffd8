import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { bearer, binaryBody, createEvidenceRun, eventually } from '@platform/testing';
import { parseCheckpoint, parseNote, verifyInclusion } from '../../packages/merkle/src';
import { auditRecordsOfClaim, ownPolicyFnol, reportLoss } from './fnol';
import { JOURNEY_MODES, startJourneyPlatform, type JourneyMode, type JourneyPlatform } from './journey-platform';

const VERIFIER = path.resolve(__dirname, '../../services/evidence/src/features/binders/verifier/verify.mjs');

/**
 * Erasure next to the append-only audit log: a binder built while the claimant's records were in the log, then
 * the claimant erased; the log still verifies, the claim's records are still proven included, and the earlier
 * binder still verifies offline.
 */
describe.each(JOURNEY_MODES)('the audit log after an erasure, %s', (_shape: string, mode: JourneyMode) => {
  let stack: JourneyPlatform;
  const dirs: string[] = [];
  beforeAll(async () => {
    stack = await startJourneyPlatform(mode);
  }, 120000);
  afterAll(async () => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await stack?.stop();
  });

  const api = () => request(stack.gatewayUrl);

  /** The checkpoint note's tree size and root. */
  async function checkpoint(auditor: string) {
    const note = (await api().get('/api/evidence/audit/checkpoint').set('Authorization', auditor).expect(200)).text;
    return parseCheckpoint(parseNote(note)!.text)!;
  }

  /** Whether the record of `seq` is proven included in the checkpoint's tree; returns its leaf hash. */
  async function provenIncluded(auditor: string, seq: number, tree: { size: number; rootHash: Buffer }) {
    const proof = (
      await api()
        .get('/api/evidence/audit/proofs/inclusion')
        .query({ index: seq - 1, tree_size: tree.size })
        .set('Authorization', auditor)
        .expect(200)
    ).body;
    const included = verifyInclusion(
      seq - 1,
      tree.size,
      Buffer.from(proof.leaf_hash, 'base64'),
      proof.proof.map((hash: string) => Buffer.from(hash, 'base64')),
      tree.rootHash,
    );
    return { included, leafHash: proof.leaf_hash as string };
  }

  function verifyOffline(zip: Buffer, serviceKey: string) {
    const dir = mkdtempSync(path.join(tmpdir(), 'erased-binder-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'binder.zip'), zip);
    const result = spawnSync(process.execPath, [VERIFIER, 'binder.zip', '--service-key', serviceKey], { cwd: dir, encoding: 'utf8' });
    return { status: result.status, output: result.stdout + result.stderr };
  }

  it('verifies the log, the claim’s inclusion proofs and an earlier binder after the claimant is erased', async () => {
    const [auditor, writer, approver, officer] = await Promise.all([
      bearer('audit:read', 'examiner'),
      bearer('evidence:write', 'writer'),
      bearer('evidence:approve', 'approver'),
      bearer('privacy:manage claims:read', 'privacy-pat'),
    ]);
    const tag = randomBytes(5).toString('hex');
    const name = `Odile Verhaegen ${tag}`;
    const claim = await reportLoss(
      stack.gatewayUrl,
      ownPolicyFnol({
        claimant: { name, email: `odile.${tag}@example.org` },
        loss: { date: '2026-11-20', type: 'auto_glass', description: `Stone chip ${tag}` },
      }),
    );
    const created = await eventually(async () => {
      const records = await auditRecordsOfClaim(stack.gatewayUrl, auditor, claim.claim_id);
      return records.find((record) => record.action === 'claim.created');
    }, 20000);
    const createdSeq = (created as unknown as { seq: number }).seq;

    // a binder built while the claimant's records are in the log
    const runId = await createEvidenceRun(stack.gatewayUrl, writer, {
      control: { key: `ERA-${tag}`, title: 'Privacy requests handled' },
      period: { start: '2026-11-01', end: '2026-11-30' },
      notes: [{ title: 'Erasure requests reviewed' }],
      submit: true,
    });
    await api()
      .post(`/api/evidence/runs/${runId}/decision`)
      .set('Authorization', approver)
      .send({ decision: 'approved', rationale: 'Complete' })
      .expect(201);
    const binder = await api().post(`/api/evidence/binders/run/${runId}`).set('Authorization', writer).expect(201);
    const zip = (
      await api()
        .get(`/api/evidence/binder-archives/${binder.body.binder_id}`)
        .set('Authorization', auditor)
        .buffer(true)
        .parse(binaryBody)
        .expect(200)
    ).body as Buffer;
    const before = await checkpoint(auditor);
    const includedBefore = await provenIncluded(auditor, createdSeq, before);
    expect(includedBefore.included).toBe(true);

    // the claimant withdraws, nothing is retained any more, and a privacy officer erases them
    await api()
      .post(`/api/claims/public/claims/${claim.claim_id}/withdraw`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .expect(200);
    const policy = await api().get('/api/claims/retention-policy').set('Authorization', officer).expect(200);
    await api()
      .put('/api/claims/retention-policy')
      .set('Authorization', officer)
      .set('If-Match', policy.headers.etag)
      .send({ retention_days: { paid: 0, denied: 0, withdrawn: 0, duplicate: 0 }, reason: 'Test: nothing retained' })
      .expect(200);
    const file = await api().get(`/api/claims/claims/${claim.claim_id}`).set('Authorization', officer).expect(200);
    const erasure = await api()
      .post(`/api/claims/claimants/${file.body.claim.claimant_id}/erasure`)
      .set('Authorization', officer)
      .send({ reason: 'Data subject request', legal_basis: 'consent_withdrawn' })
      .expect(201);
    const records = await eventually(async () => {
      const found = await auditRecordsOfClaim(stack.gatewayUrl, auditor, claim.claim_id);
      return found.some((record) => record.action === 'claim.claimant_erased') && found;
    }, 20000);
    expect(JSON.stringify(records)).not.toContain(tag);
    expect(JSON.stringify(records)).toContain(erasure.body.erasure_id);

    const verify = await api().get('/api/evidence/audit/verify').set('Authorization', auditor).expect(200);
    expect(verify.body.valid).toBe(true);
    const after = await eventually(async () => {
      const head = await checkpoint(auditor);
      return head.size > before.size && head;
    }, 20000);
    const includedAfter = await provenIncluded(auditor, createdSeq, after);
    expect(includedAfter).toEqual({ included: true, leafHash: includedBefore.leafHash });

    const serviceKey = (await api().get('/api/evidence/audit/public-key').set('Authorization', auditor).expect(200)).headers[
      'x-audit-verifier-key'
    ];
    const offline = verifyOffline(zip, serviceKey);
    expect(offline.output).toContain('Binder verified.');
    expect(offline.status).toBe(0);
  });
});
