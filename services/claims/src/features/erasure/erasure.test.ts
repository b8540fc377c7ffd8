import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { Registry } from 'prom-client';
import request from 'supertest';
import { compile } from '@platform/http';
import { bearer, fnolBody, uniquePolicyNumber } from '@platform/testing';
import { startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { as } from '../../testing/workflow-fixtures';
import { claimantPrivacyFor } from '../claimants';
import { exportStorage } from '../exports';
import { erasureSchema } from './erasure-schemas';
import { sweepRetention } from './erasure-sweep';

const privacyOfficer = () => bearer('privacy:manage', 'privacy-pat');

/** A claimant whose every personal value is unique to them, so finding one anywhere means it survived. */
function personalValues() {
  const tag = randomBytes(5).toString('hex');
  const digits = String(parseInt(tag, 16) % 10_000_000).padStart(7, '0');
  return {
    name: `Zelda Quirinus ${tag}`,
    email: `zelda.${tag}@example.org`,
    phone: `+1628${digits}`,
    description: `Hail dented the roof near the orchard ${tag}`,
    address: `${digits} Juniper Lane`,
    policeReport: `PR-${tag}`,
    filename: `receipt-${tag}.pdf`,
    fileMarker: `file-contents-${tag}`,
    reopeningReason: `We found the missing invoice ${tag} and look again`,
  };
}
type PersonalValues = ReturnType<typeof personalValues>;

/** Every file under a directory, recursively (the storage as the disk holds it). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('erasure of a claimant', () => {
  let t: ClaimsTestService;
  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** Files a claim through intake with these values, uploads a file, and returns it with its claimant. */
  async function fileClaimOf(values: PersonalValues, { injuries = false } = {}) {
    const filed = await request(t.url)
      .post('/api/claims/public/claims')
      .send(
        fnolBody({
          policy_number: uniquePolicyNumber(),
          claimant: { name: values.name, email: values.email, phone: values.phone },
          loss: {
            ...fnolBody().loss,
            type: 'property_weather',
            description: values.description,
            location: { address_line: values.address, city: 'Springfield', postal_code: '12345', country: 'US' },
          },
          injuries,
          police_report_number: values.policeReport,
        }),
      )
      .expect(201);
    const pdf = Buffer.from(`%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n% ${values.fileMarker}\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`);
    await request(t.url)
      .post(`/api/claims/public/claims/${filed.body.claim_id}/attachments`)
      .set('Authorization', `Bearer ${filed.body.access_token}`)
      .attach('file', pdf, values.filename)
      .expect(201);
    const { claimant_id: claimantId } = await t.db('claims').where({ id: filed.body.claim_id }).first('claimant_id');
    return {
      claimId: filed.body.claim_id as string,
      claimNumber: filed.body.claim_number as string,
      token: filed.body.access_token as string,
      claimantId: claimantId as string,
    };
  }

  const withdraw = (claim: { claimId: string; token: string }) =>
    request(t.url).post(`/api/claims/public/claims/${claim.claimId}/withdraw`).set('Authorization', `Bearer ${claim.token}`).expect(200);

  const erase = async (claimantId: string, body: object = { reason: 'Data subject request DSR-1', legal_basis: 'consent_withdrawn' }) =>
    request(t.url)
      .post(`/api/claims/claimants/${claimantId}/erasure`)
      .set('Authorization', await privacyOfficer())
      .send(body);

  const zeroDayPolicy = async () => {
    const current = await request(t.url)
      .get('/api/claims/retention-policy')
      .set('Authorization', await privacyOfficer())
      .expect(200);
    await request(t.url)
      .put('/api/claims/retention-policy')
      .set('Authorization', await privacyOfficer())
      .set('If-Match', current.headers.etag)
      .send({ retention_days: { paid: 0, denied: 0, withdrawn: 0, duplicate: 0 }, reason: 'Tests: nothing is retained' })
      .expect(200);
  };

  /** A refusal: 409 problem+json with this reason, and nothing changed (claims, erasure records, events). */
  async function expectRefused(claimantId: string, reason: string) {
    const personal = () =>
      t
        .db('claims')
        .where({ claimant_id: claimantId })
        .orderBy('id')
        .select('claimant_name', 'claimant_email', 'access_token_hash', 'claimant_erased_at');
    const claims = await personal();
    const response = await erase(claimantId);
    expect(response.status).toBe(409);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(response.body.reasons).toContain(reason);
    expect(await personal()).toEqual(claims);
    expect(await t.db('claimant_erasures').where({ claimant_id: claimantId })).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(
      t.events.received.filter((event) => event.body.type === 'claim.claimant_erased' && event.body.data.claimant_id === claimantId),
    ).toEqual([]);
    return response.body;
  }

  it('refuses while a claim is open, naming it', async () => {
    const claim = await fileClaimOf(personalValues());
    const problem = await expectRefused(claim.claimantId, 'claim_open');
    expect(problem.blocking_claims).toEqual([{ claim_id: claim.claimId, claim_number: claim.claimNumber, reason: 'claim_open' }]);
    expect(problem.detail).toContain(claim.claimNumber);
  });

  it('refuses while retention has not passed, with the date it passes (withdrawn: 1095 days by default)', async () => {
    const claim = await fileClaimOf(personalValues());
    await withdraw(claim);
    const closedAt = (await t.db('status_updates').where({ claim_id: claim.claimId, stage: 'closed' }).first('created_at')).created_at;
    const problem = await expectRefused(claim.claimantId, 'retention_not_passed');
    const expected = new Date(new Date(closedAt).getTime() + 1095 * 86400_000).toISOString();
    expect(problem.retention_passes_at).toBe(expected);
    expect(problem.blocking_claims).toEqual([
      { claim_id: claim.claimId, claim_number: claim.claimNumber, reason: 'retention_not_passed', retained_until: expected },
    ]);
  });

  it('refuses an unknown claimant (404), a body without a legal basis (400) and a caller without privacy:manage (403)', async () => {
    expect((await erase(randomUUID())).status).toBe(404);
    expect((await erase('not-a-uuid')).status).toBe(404);
    const claim = await fileClaimOf(personalValues());
    expect((await erase(claim.claimantId, { reason: 'x' })).status).toBe(400);
    expect((await erase(claim.claimantId, { reason: 'x', legal_basis: 'because' })).status).toBe(400);
    await request(t.url)
      .post(`/api/claims/claimants/${claim.claimantId}/erasure`)
      .set('Authorization', await as.decider())
      .send({ reason: 'x', legal_basis: 'objection' })
      .expect(403);
  });

  describe('once the retention policy keeps nothing', () => {
    beforeAll(zeroDayPolicy);

    it('refuses while a legal hold stands, and erases once a person released it', async () => {
      const claim = await fileClaimOf(personalValues());
      await withdraw(claim);
      const hold = await request(t.url)
        .post(`/api/claims/claims/${claim.claimId}/legal-holds`)
        .set('Authorization', await privacyOfficer())
        .send({ reason: 'Litigation notice' })
        .expect(201);
      const problem = await expectRefused(claim.claimantId, 'legal_hold');
      expect(problem.blocking_claims).toEqual([{ claim_id: claim.claimId, claim_number: claim.claimNumber, reason: 'legal_hold' }]);
      await request(t.url)
        .post(`/api/claims/claims/${claim.claimId}/legal-holds/${hold.body.hold_id}/release`)
        .set('Authorization', await privacyOfficer())
        .send({ reason: 'Settled' })
        .expect(200);
      expect((await erase(claim.claimantId)).status).toBe(201);
    });

    it('erases: tombstone on the claim, the portal link 404s, nothing of the claimant in any table or file, once only', async () => {
      const values = personalValues();
      const claim = await fileClaimOf(values);
      await withdraw(claim);
      // reopened with a reason told to the claimant, then withdrawn again: the reason must not outlive them either
      await request(t.url)
        .post(`/api/claims/claims/${claim.claimId}/status-updates`)
        .set('Authorization', await as.decider())
        .send({
          channel: 'email',
          stage: 'assigned',
          what_happened: values.reopeningReason,
          what_happens_next: 'An adjuster reviews your claim again',
          what_we_need_from_you: null,
          contact: { phone: '+14155550199', email: 'sam@insurer.example' },
          language: 'en',
        })
        .expect(201);
      await withdraw(claim);
      const [before] = await t.db('claims').where({ id: claim.claimId }).select('claimant_name');
      expect(before.claimant_name).not.toBe('Erased claimant');

      const response = await erase(claim.claimantId);
      expect(response.status).toBe(201);
      expect(compile(erasureSchema)(response.body)).toBe(true);
      expect(response.body).toMatchObject({
        claimant_id: claim.claimantId,
        claim_ids: [claim.claimId],
        legal_basis: 'consent_withdrawn',
        reason: 'Data subject request DSR-1',
        erased_by: 'privacy-pat',
      });
      expect(response.body.files_destroyed_at).not.toBeNull();

      const file = await request(t.url)
        .get(`/api/claims/claims/${claim.claimId}`)
        .set('Authorization', await as.reader())
        .expect(200);
      expect(file.body.claimant_erased_at).toBe(response.body.erased_at);
      expect(file.body.claim.claimant).toEqual({ name: 'Erased claimant', email: null, phone: null });
      expect(file.body.claim.loss.description).toBe('Erased');
      expect(JSON.stringify(file.body).toLowerCase()).not.toContain(values.name.toLowerCase());
      await request(t.url)
        .get(`/api/claims/public/claims/${claim.claimId}/status`)
        .set('Authorization', `Bearer ${claim.token}`)
        .expect(404);
      const search = await request(t.url)
        .get('/api/claims/claims')
        .query({ q: values.name })
        .set('Authorization', await as.reader())
        .expect(200);
      expect(search.body.items.map((item: { claim_id: string }) => item.claim_id)).not.toContain(claim.claimId);

      // every row of every table, as text, and every file under DATA_DIR (the attachment storage included)
      const tables: string[] = (
        await t.db.raw(`SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
                      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
      ).rows.map((row: { name: string }) => row.name);
      expect(tables.length).toBeGreaterThan(20);
      const sources: { name: string; text: string }[] = [];
      for (const table of tables) {
        const rows: { row: string }[] = (await t.db.raw(`SELECT t::text AS row FROM ${table} t`)).rows;
        sources.push({
          name: table,
          text: rows
            .map((row) => row.row)
            .join('\n')
            .toLowerCase(),
        });
      }
      for (const name of await filesUnder(t.dataDir)) sources.push({ name, text: (await readFile(name)).toString('latin1').toLowerCase() });
      const holding = (value: string) => sources.filter((source) => source.text.includes(value.toLowerCase())).map((source) => source.name);
      expect(holding(claim.claimId).length).toBeGreaterThan(0); // the search reads what it should
      const phoneDigits = values.phone.replace(/[^0-9]/g, '');
      const searched = [...Object.values(values), phoneDigits];
      expect(searched.map((value) => ({ value, holding: holding(value) }))).toEqual(searched.map((value) => ({ value, holding: [] })));
      expect(await t.db('claimants').where({ id: claim.claimantId }).first('wrapped_key', 'email_index', 'phone_index')).toEqual({
        wrapped_key: null,
        email_index: null,
        phone_index: null,
      });

      await t.events.waitFor((events) =>
        events.some((event) => event.body.type === 'claim.claimant_erased' && event.body.data.claim_id === claim.claimId),
      );
      const event = t.events.received.find((e) => e.body.type === 'claim.claimant_erased' && e.body.data.claim_id === claim.claimId)!;
      expect(event.body.data).toEqual({
        claim_id: claim.claimId,
        actor: 'privacy-pat',
        claimant_id: claim.claimantId,
        erasure_id: response.body.erasure_id,
        claim_ids: [claim.claimId],
        legal_basis: 'consent_withdrawn',
      });

      const again = await erase(claim.claimantId, { reason: 'Asked twice', legal_basis: 'objection' });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(response.body);
    });

    it('asks no purpose for an erased claimant’s sensitive claim: the tombstone is read without one', async () => {
      const claim = await fileClaimOf(personalValues(), { injuries: true });
      await withdraw(claim);
      const sensitivity = async () =>
        (
          await request(t.url)
            .get(`/api/claims/claims/${claim.claimId}/sensitivity`)
            .set('Authorization', await as.reader())
            .expect(200)
        ).body;
      expect(await sensitivity()).toMatchObject({ sensitive: true, purpose_required: true });
      await request(t.url)
        .get(`/api/claims/claims/${claim.claimId}`)
        .set('Authorization', await as.reader())
        .expect(428);
      expect((await erase(claim.claimantId)).status).toBe(201);
      expect(await sensitivity()).toMatchObject({ sensitive: true, purpose_required: false });
      const file = await request(t.url)
        .get(`/api/claims/claims/${claim.claimId}`)
        .set('Authorization', await as.reader())
        .expect(200);
      expect(file.body.claim.claimant).toEqual({ name: 'Erased claimant', email: null, phone: null });
    });

    it('the retention sweep erases the claimants that are due and skips those on hold or with an open claim', async () => {
      const due = await fileClaimOf(personalValues());
      await withdraw(due);
      const held = await fileClaimOf(personalValues());
      await withdraw(held);
      await request(t.url)
        .post(`/api/claims/claims/${held.claimId}/legal-holds`)
        .set('Authorization', await privacyOfficer())
        .send({ reason: 'Regulator inquiry' })
        .expect(201);
      const open = await fileClaimOf(personalValues());
      const metrics = new Registry();
      const erased = await sweepRetention(
        { db: t.db, logger: pino({ level: 'silent' }), metrics },
        { exchange: t.config.CLAIMS_EXCHANGE, destroyKey: claimantPrivacyFor({ db: t.db, dataDir: t.dataDir }, t.config).keys.destroyKey },
        { attachments: t.attachments, exports: exportStorage(t.config, t.dataDir) },
      );
      const erasures = await t.db('claimant_erasures').whereIn('claimant_id', [due.claimantId, held.claimantId, open.claimantId]);
      expect(erasures.map((row) => [row.claimant_id, row.reason, row.legal_basis, row.erased_by])).toEqual([
        [due.claimantId, expect.stringMatching(/^retention policy v[0-9]+$/), 'retention_expired', 'system:retention-sweep'],
      ]);
      const latest = (await t.db('retention_policies').max({ version: 'version' }))[0].version;
      expect(erasures[0].reason).toBe(`retention policy v${latest}`);
      expect(erased).toBeGreaterThanOrEqual(1);
      expect((await metrics.getSingleMetric('claims_retention_erasures_total')!.get()).values[0].value).toBe(erased);
      expect(
        await sweepRetention(
          { db: t.db, logger: pino({ level: 'silent' }), metrics },
          { exchange: t.config.CLAIMS_EXCHANGE, destroyKey: async () => {} },
          { attachments: t.attachments, exports: exportStorage(t.config, t.dataDir) },
        ),
      ).toBe(0);
    });
  });
});
