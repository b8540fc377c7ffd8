import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import request from 'supertest';
import { createDatabase, migrate } from '@platform/db';
import { messagingMigrations } from '@platform/messaging';
import { bearer, eventually, fnolBody, openTestDatabase } from '@platform/testing';
import { claimsMigrations } from '../../migrations';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { localKeyVault } from '@platform/privacy';
import { insertTestClaim } from '../../testing/workflow-fixtures';
import { claimantPrivacy } from './claimant-keys';
import { localKekFile } from './claimant-vault';
import { openField, reopeningReasonContext } from '../../shared/claimant-fields';
import { sealPlainFields } from './plain-field-sealing';

/** What the claimant gives at intake; none of it may be readable in the stored rows. */
const zoe = {
  email: 'Zoe.Quill@Example.org',
  phone: '+447700900777',
  description: 'Rear-ended near the old mill by a grey van',
  police: 'PR-998877',
};
const plainValues = ['Zoe Quill', 'zoe.quill@example.org', 'Zoe.Quill', '7700900777', 'old mill by a grey van', 'PR-998877'];

describe('claimants: personal fields sealed per claimant, matched by blind index', () => {
  let t: ClaimsTestService;
  let reader: string;
  let first: { claim_id: string; access_token: string };

  beforeAll(async () => {
    t = await startClaimsTestService();
    reader = await bearer('claims:read', 'alice');
    first = await fileClaim(t.url, {
      policy_number: 'POL-ZOE-1',
      claimant: { name: 'Zoe Quill', email: zoe.email, phone: zoe.phone },
      loss: { date: new Date(Date.now() - 86400_000).toISOString().slice(0, 10), type: 'auto_collision', description: zoe.description },
      police_report_number: zoe.police,
    });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const claimantIdOf = async (claimId: string) => (await t.db('claims').where({ id: claimId }).first('claimant_id')).claimant_id as string;

  it('stores none of the claimant’s values in plain text: claims, status updates, claimants', async () => {
    const rows = [
      await t.db('claims').where({ id: first.claim_id }).first(),
      ...(await t.db('status_updates').where({ claim_id: first.claim_id })),
      await t
        .db('claimants')
        .where({ id: await claimantIdOf(first.claim_id) })
        .first(),
    ];
    const stored = JSON.stringify(rows).toLowerCase();
    for (const value of plainValues) expect(stored).not.toContain(value.toLowerCase());
    const [claim, acknowledgement] = rows;
    for (const column of ['claimant_name', 'claimant_email', 'claimant_phone', 'loss_description', 'police_report_number'])
      expect(claim[column]).toMatch(/^pv1:/);
    for (const column of ['what_happened', 'what_happens_next']) expect(acknowledgement[column]).toMatch(/^pv1:/);
    expect(rows[2]).toMatchObject({ email_index: expect.any(String), phone_index: expect.any(String), wrapped_key: expect.any(String) });
    expect(rows[2].kek_id).toMatch(/^local:/);
  });

  it('seals the copies of those values an adjuster kit keeps, and opens them for the adjuster', async () => {
    const writer = await bearer('claims:read claims:write', 'alice');
    const kit = await request(t.url)
      .post(`/api/claims/claims/${first.claim_id}/generate-adjuster-kit`)
      .set('Authorization', writer)
      .expect(201);
    const stored = await t.db('adjuster_kits').where({ id: kit.body.kit_id }).first('snapshot');
    expect(stored.snapshot).toMatch(/^pv1:/);
    for (const value of plainValues) expect(stored.snapshot.toLowerCase()).not.toContain(value.toLowerCase());
    const { body } = await request(t.url)
      .get(`/api/claims/claims/${first.claim_id}/adjuster-kits/${kit.body.kit_id}`)
      .set('Authorization', reader)
      .expect(200);
    expect(body).toEqual(kit.body);
    expect(body.claim.claimant.name).toBe('Zoe Quill');
  });

  it('keeps the key-encryption key in DATA_DIR, readable by the service’s user only', () => {
    expect(statSync(localKekFile(t.dataDir)).mode & 0o777).toBe(0o600);
  });

  it('shows the claim file opened, with its claimant_id', async () => {
    const { body } = await request(t.url).get(`/api/claims/claims/${first.claim_id}`).set('Authorization', reader).expect(200);
    expect(body.claim.claimant_id).toBe(await claimantIdOf(first.claim_id));
    expect(body.claim.claimant).toEqual({ name: 'Zoe Quill', email: 'zoe.quill@example.org', phone: zoe.phone });
    expect(body.claim.loss.description).toBe(zoe.description);
    expect(body.claim.police_report_number).toBe(zoe.police);
    expect(body.status_updates[0].what_happened).toContain('We received your claim');
  });

  it('matches a returning claimant by the same email in any case, else by the same phone; anyone else is new', async () => {
    const again = await fileClaim(t.url, { policy_number: 'POL-ZOE-2', claimant: { name: 'Zoe Quill', email: 'ZOE.QUILL@example.org' } });
    const byPhone = await fileClaim(t.url, {
      policy_number: 'POL-ZOE-3',
      claimant: { name: 'Zoe Q.', phone: '+447700900777' },
      preferred_channel: 'sms',
    });
    const someoneElse = await fileClaim(t.url, { policy_number: 'POL-ZOE-4', claimant: { name: 'Zoe Quill', email: 'zoe@example.net' } });
    const zoeId = await claimantIdOf(first.claim_id);
    expect(await claimantIdOf(again.claim_id)).toBe(zoeId);
    expect(await claimantIdOf(byPhone.claim_id)).toBe(zoeId);
    expect(await claimantIdOf(someoneElse.claim_id)).not.toBe(zoeId);
    // one data key per claimant: the returning claim's fields open with the first claim's key
    expect(await t.claimKey(again.claim_id)).toEqual(await t.claimKey(first.claim_id));
  });

  // Intakes wait for each other at the claim number, after matching their claimant, so a claimant's transaction may
  // overlap another's: the one that inserts second waits for the first to commit (the unique indexes of migration
  // 0029), then takes its claimant.
  it.each([
    ['by email', { email: 'twin.intake@example.org', phone: null }],
    ['by phone, without an email', { email: null, phone: '+14155550199' }],
  ])('makes one claimant of two intakes of the same new claimant whose transactions overlap (%s)', async (_, contact) => {
    const first = await t.db.transaction();
    const second = await t.db.transaction();
    // the role of t.db, which may see its own sessions' waits
    const watcher = createDatabase({ url: t.config.MIGRATION_DATABASE_URL!, poolMax: 1 });
    const waitingForALock = () =>
      eventually(async () => {
        const { rows } = await watcher.raw(
          "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        return rows.length > 0;
      });
    try {
      const made = await t.privacy.claimantOf(first, contact);
      const taking = t.privacy.claimantOf(second, contact);
      // the second has looked before the first commits: it ends (with a claimant of its own) or waits for the first
      await Promise.race([taking, waitingForALock()]);
      await first.commit();
      const taken = await taking;
      await second.commit();
      expect(taken.claimantId).toBe(made.claimantId);
      expect(taken.key).toEqual(made.key);
      const column = contact.email ? 'email_index' : 'phone_index';
      const index = contact.email ? await t.privacy.emailIndex(contact.email) : await t.privacy.phoneIndex(contact.phone!);
      expect(
        await t
          .db('claimants')
          .where({ [column]: index })
          .select('id'),
      ).toEqual([{ id: made.claimantId }]);
    } finally {
      if (!first.isCompleted()) await first.rollback();
      if (!second.isCompleted()) await second.rollback();
      await watcher.destroy();
    }
  });

  it('leaves a new email to the new claimant another intake made with it meanwhile, when a returning claimant matched by phone gave it too', async () => {
    const returning = await t.db.transaction((trx) => t.privacy.claimantOf(trx, { email: null, phone: '+14155550123' }));
    const first = await t.db.transaction();
    const second = await t.db.transaction();
    try {
      const newcomer = await t.privacy.claimantOf(first, { email: 'contested@example.org', phone: '+14155550124' });
      // matched by phone before the newcomer commits; its new email conflicts with the newcomer's, once committed
      const matching = t.privacy.claimantOf(second, { email: 'contested@example.org', phone: '+14155550123' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await first.commit();
      const matched = await matching;
      await second.commit();
      expect(matched.claimantId).toBe(returning.claimantId);
      expect(newcomer.claimantId).not.toBe(returning.claimantId);
      const emailIndex = await t.privacy.emailIndex('contested@example.org');
      expect(await t.db('claimants').where({ email_index: emailIndex }).pluck('id')).toEqual([newcomer.claimantId]);
    } finally {
      if (!first.isCompleted()) await first.rollback();
      if (!second.isCompleted()) await second.rollback();
    }
  });

  it('finds the claims by the whole email or phone (blind index), not by a part of either', async () => {
    const ids = async (q: string) =>
      (await request(t.url).get('/api/claims/claims').query({ q }).set('Authorization', reader).expect(200)).body.items.map(
        (item: { claim_id: string }) => item.claim_id,
      );
    expect(await ids('zoe.quill@EXAMPLE.org')).toContain(first.claim_id);
    expect(await ids('+44 (7700) 900-777')).toContain(first.claim_id);
    expect(await ids('@example.org')).not.toContain(first.claim_id);
    expect(await ids('900777')).not.toContain(first.claim_id);
  });

  it('gives the claimant their status updates opened', async () => {
    const { body } = await request(t.url)
      .get(`/api/claims/public/claims/${first.claim_id}/status`)
      .set('Authorization', `Bearer ${first.access_token}`)
      .expect(200);
    expect(body.latest_update.what_happened).toContain('We received your claim');
    expect(body.history.items[0].update.what_happens_next).not.toMatch(/^pv1:/);
  });
});

describe('claimants under a full pool', () => {
  let t: ClaimsTestService;
  beforeAll(async () => {
    t = await startClaimsTestService({ DB_POOL_MAX: '2' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  // Each intake's transaction holds a connection: a key read on another one waited for a connection that
  // only a finished intake could free, and at the pool's size every intake timed out (503).
  const intakes = (count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        request(t.url)
          .post('/api/claims/public/claims')
          .send(fnolBody({ policy_number: `POL-POOL-${i}`, claimant: { name: `Pool Claimant ${i}`, email: `pool.${i}@example.org` } })),
      ),
    );

  it('files as many claims at once as the pool holds connections, on a database without a blind-index or name index key yet', async () => {
    expect(await t.db('privacy_keys').count({ n: '*' })).toEqual([{ n: '0' }]);
    expect((await intakes(4)).map((response) => response.status)).toEqual([201, 201, 201, 201]);
    expect((await t.db('privacy_keys').select('name').orderBy('name')).map((row) => row.name)).toEqual([
      'claimant-blind-index',
      'claims-name-index',
    ]);
  });
});

describe('claimants made twice before the unique contacts (migration 0029)', () => {
  it('keep the oldest matched by the email (or, without one, the phone); the others keep their data key, no longer matched', async () => {
    const before = claimsMigrations.findIndex((migration) => migration.name === '0029_claims_claimant_unique_contacts');
    const { db, cleanup } = await openTestDatabase('claims', [...messagingMigrations, ...claimsMigrations.slice(0, before)]);
    try {
      const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
      const claimant = (minute: number, email_index: string | null, phone_index: string | null) => ({
        id: randomUUID(),
        email_index,
        phone_index,
        wrapped_key: `wrapped-${minute}`,
        kek_id: 'local:test',
        created_at: at(minute),
      });
      const byEmail = [claimant(1, 'e1', 'p1'), claimant(2, 'e1', 'p2'), claimant(3, 'e1', null)];
      const byPhone = [claimant(4, null, 'p9'), claimant(5, null, 'p9')];
      const erased = { ...claimant(0, 'e1', null), erased_at: at(0) };
      await db('claimants').insert([...byEmail, ...byPhone, erased]);

      await migrate(db, [...messagingMigrations, ...claimsMigrations]);

      const rows = await db('claimants').whereNull('erased_at').orderBy('created_at').select('email_index', 'phone_index', 'wrapped_key');
      expect(rows).toEqual([
        { email_index: 'e1', phone_index: 'p1', wrapped_key: 'wrapped-1' },
        { email_index: null, phone_index: 'p2', wrapped_key: 'wrapped-2' },
        { email_index: null, phone_index: null, wrapped_key: 'wrapped-3' },
        { email_index: null, phone_index: 'p9', wrapped_key: 'wrapped-4' },
        { email_index: null, phone_index: null, wrapped_key: 'wrapped-5' },
      ]);
      await expect(db('claimants').insert(claimant(6, 'e1', null))).rejects.toMatchObject({ code: '23505' });
      await expect(db('claimants').insert(claimant(7, null, 'p9'))).rejects.toMatchObject({ code: '23505' });
      // a phone another claimant gave with their email stays allowed (the email decides who they are)
      await db('claimants').insert(claimant(8, 'e8', 'p9'));
    } finally {
      await cleanup();
    }
  });
});

describe('claims stored in plain text before encryption (migration 0024, or PRIVACY_ENCRYPTION off)', () => {
  let t: ClaimsTestService;
  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('are sealed with a data key their claimant is given, updates and all, and still read the same', async () => {
    const claim = await insertTestClaim(t.db, { stage: 'assigned', police_report_number: 'PR-PLAIN-31' });
    const writer = await bearer('claims:read claims:write', 'alice');
    await request(t.url)
      .post(`/api/claims/claims/${claim.claim_id}/status-updates`)
      .set('Authorization', writer)
      .send({
        channel: 'email',
        stage: 'assigned',
        what_happened: 'Plain-era note about the garage visit',
        what_happens_next: 'We call you',
      })
      .expect(201);
    const before = (await request(t.url).get(`/api/claims/claims/${claim.claim_id}`).set('Authorization', writer).expect(200)).body;
    expect(JSON.stringify(await t.db('status_updates').where({ claim_id: claim.claim_id }))).toContain('garage visit');

    const privacy = claimantPrivacy(t.db, localKeyVault(localKekFile(t.dataDir)), true);
    expect(await sealPlainFields(t.db, privacy)).toBeGreaterThanOrEqual(1);
    const stored = [
      await t.db('claims').where({ id: claim.claim_id }).first(),
      ...(await t.db('status_updates').where({ claim_id: claim.claim_id })),
    ];
    for (const value of ['Ana Ruiz', 'PR-PLAIN-31', 'Rear-ended at a light', 'garage visit', 'We call you'])
      expect(JSON.stringify(stored).toLowerCase()).not.toContain(value.toLowerCase());
    for (const column of ['claimant_name', 'claimant_email', 'claimant_phone', 'loss_description', 'police_report_number'])
      expect(stored[0][column]).toMatch(/^pv1:/);
    expect(await t.claimKey(claim.claim_id)).toHaveLength(32);

    const after = (await request(t.url).get(`/api/claims/claims/${claim.claim_id}`).set('Authorization', writer).expect(200)).body;
    // the same claim, in a new version (its ETag): the row changed, once
    expect(after.claim).toEqual({ ...before.claim, version: before.claim.version + 1 });
    expect(after.status_updates).toEqual(before.status_updates);
    // nothing plain is left: the next pass has nothing to do
    expect(await sealPlainFields(t.db, privacy)).toBe(0);

    // a reopening's reason migration 0031 moved out of the timeline, in plain text, on this claim sealed before
    const updateId = (await t.db('status_updates').where({ claim_id: claim.claim_id }).first('update_id')).update_id;
    await t.db('claim_reopenings').insert({
      update_id: updateId,
      claim_id: claim.claim_id,
      stage: 'assigned',
      reason: 'Reopened for the plain-era garage',
      reopened_by: 'lead-bo',
    });
    expect(await sealPlainFields(t.db, privacy)).toBe(1);
    const reopening = await t.db('claim_reopenings').where({ update_id: updateId }).first('reason');
    expect(reopening.reason).toMatch(/^pv1:/);
    expect(openField(await t.claimKey(claim.claim_id), reopening.reason, reopeningReasonContext(updateId))).toBe(
      'Reopened for the plain-era garage',
    );
    expect(await sealPlainFields(t.db, privacy)).toBe(0);
  });
});
