import request from 'supertest';
import { eventually } from '@platform/testing';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { startSmtpTestServer } from '../../testing/smtp-test-server';

describe('the acknowledgement in the claim language', () => {
  let t: ClaimsTestService;
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    t = await startClaimsTestService({ SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.close();
  });

  const historyOf = async (claim: { claim_id: string; access_token: string }) =>
    (
      await request(t.url)
        .get(`/api/claims/public/claims/${claim.claim_id}/status`)
        .set('Authorization', `Bearer ${claim.access_token}`)
        .expect(200)
    ).body.history.items;

  it('writes the acknowledgement and its email in Spanish for es-MX', async () => {
    const claim = await fileClaim(t.url, { language: 'es-MX', claimant: { name: 'Ana Ruiz', email: 'ana.es@example.com' } });
    const [acknowledgement] = await historyOf(claim);
    expect(acknowledgement.language_fallback_from).toBeNull();
    expect(acknowledgement.update).toMatchObject({
      language: 'es',
      what_happened: `Hemos recibido su reclamación ${claim.claim_number}.`,
      what_we_need_from_you: 'Por favor, envíenos: fotos de los daños, presupuesto de reparación, denuncia policial.',
      cta: { label: 'Enviar sus documentos' },
    });
    expect(acknowledgement.update.what_happens_next).toMatch(
      /^Un especialista en reclamaciones la revisará y se pondrá en contacto con usted antes del \d{1,2} de [a-z]+ de \d{4}\.$/,
    );
    const mail = await eventually(async () => smtp.received.find((received) => received.to.includes('ana.es@example.com')));
    expect(mail.text).toContain('Próximos pasos: Un especialista');
  });

  it('falls back to English for a language without a catalogue, and says so in the stored update', async () => {
    const claim = await fileClaim(t.url, { language: 'fr-CA' });
    const [acknowledgement] = await historyOf(claim);
    expect(acknowledgement.language_fallback_from).toBe('fr-CA');
    expect(acknowledgement.update).toMatchObject({ language: 'en', what_happened: `We received your claim ${claim.claim_number}.` });
    expect(await t.db('status_updates').where({ claim_id: claim.claim_id }).first('language', 'language_fallback_from')).toEqual({
      language: 'en',
      language_fallback_from: 'fr-CA',
    });
  });
});
