import { randomBytes } from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { destroyClaimFiles } from './destroy-claim-files';

const pdf = () => Buffer.from(`%PDF-1.4\n% ${randomBytes(8).toString('hex')}\ntrailer\n<< >>\n%%EOF\n`);

// Files stored in plain text (before encryption, or with it off) are content-addressed and shared between claims;
// encrypted files are each their claim's own (attachments-encryption.test.ts).
describe('destroyClaimFiles (for erasure) of files stored in plain text', () => {
  let t: ClaimsTestService;
  beforeAll(async () => {
    t = await startClaimsTestService({ PRIVACY_ENCRYPTION: 'false' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  async function upload(claim: Awaited<ReturnType<typeof fileClaim>>, bytes: Buffer): Promise<string> {
    const response = await request(t.url)
      .post(`/api/claims/public/claims/${claim.claim_id}/attachments`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .attach('file', bytes, 'report.pdf')
      .expect(201);
    return response.body.attachments[0].sha256;
  }

  it('removes every stored file of the claims, keeping content another claim also holds until that claim goes too', async () => {
    const [erased, other] = [await fileClaim(t.url), await fileClaim(t.url)];
    const own = [await upload(erased, pdf()), await upload(erased, pdf())];
    const sharedBytes = pdf();
    const shared = await upload(erased, sharedBytes);
    expect(await upload(other, sharedBytes)).toBe(shared);
    const deps = { db: t.db, logger: pino({ level: 'silent' }) };

    expect(await destroyClaimFiles(deps, t.attachments, [erased.claim_id])).toBe(2);
    for (const sha256 of own) expect(await t.attachments.has(sha256)).toBe(false);
    expect(await t.attachments.has(shared)).toBe(true);

    expect(await destroyClaimFiles(deps, t.attachments, [erased.claim_id, other.claim_id])).toBe(1);
    expect(await t.attachments.has(shared)).toBe(false);
    expect(await destroyClaimFiles(deps, t.attachments, [erased.claim_id])).toBe(0);
  });

  it('does not keep content for a claim whose claimant was erased before (bytes two erased claimants shared go)', async () => {
    const [first, second] = [await fileClaim(t.url), await fileClaim(t.url)];
    const sharedBytes = pdf();
    const shared = await upload(first, sharedBytes);
    await upload(second, sharedBytes);
    await t.db('claims').where({ id: first.claim_id }).update({ claimant_erased_at: t.db.fn.now() });
    const deps = { db: t.db, logger: pino({ level: 'silent' }) };

    expect(await destroyClaimFiles(deps, t.attachments, [second.claim_id])).toBe(1);
    expect(await t.attachments.has(shared)).toBe(false);
  });
});
