import request from 'supertest';
import { startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { as, fileTestClaim } from '../../testing/workflow-fixtures';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

describe('attachment file names', () => {
  let t: ClaimsTestService;
  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('lose bidirectional overrides and other invisible characters before they are stored, listed or served', async () => {
    const claim = await fileTestClaim(t.url);
    const upload = await request(t.url)
      .post(`/api/claims/public/claims/${claim.claim_id}/attachments`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .attach('file', PDF, { filename: 'invoice\u202Eexe.\u2066pdf\u2069\u200B', contentType: 'application/pdf' })
      .expect(201);
    expect(upload.body.attachments[0].filename).toBe('invoiceexe.pdf');
    expect(await t.db('attachments').where({ claim_id: claim.claim_id }).pluck('filename')).toEqual(['invoiceexe.pdf']);
    const file = await request(t.url)
      .get(`/api/claims/claims/${claim.claim_id}`)
      .set('Authorization', await as.reader())
      .expect(200);
    expect(file.body.attachments.map((attachment: { filename: string }) => attachment.filename)).toEqual(['invoiceexe.pdf']);
  });
});
