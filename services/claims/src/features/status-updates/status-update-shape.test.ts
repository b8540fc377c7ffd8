import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { arrangePaidClaim } from '../financials/financials-fixtures';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { as, daysAhead, insertTestClaim } from '../../testing/workflow-fixtures';

/** The thirteen fields of the interface document's StatusUpdate: the complete shape. */
const STATUS_UPDATE_KEYS = [
  'adequacy_missing',
  'adequacy_score',
  'channel',
  'claim_id',
  'contact',
  'cta',
  'expected_next_update_by',
  'language',
  'portal_url',
  'stage',
  'what_happened',
  'what_happens_next',
  'what_we_need_from_you',
];
const CONTACT_KEYS = ['email', 'phone'];
const CTA_KEYS = ['label', 'url'];
/** `data` of `claim.status_updated`: the facts of an update, never its text nor anything about closing. */
const STATUS_UPDATED_EVENT_KEYS = [
  'actor',
  'adequacy_missing',
  'adequacy_score',
  'channel',
  'claim_id',
  'expected_next_update_by',
  'previous_stage',
  'stage',
  'transition',
  'update_id',
];

const keysOf = (value: object) => Object.keys(value).sort();

/** Every key of a returned StatusUpdate, nested ones included, is one the interface document lists. */
function expectExactShape(update: Record<string, unknown>, extra: string[] = []): void {
  expect(keysOf(update)).toEqual([...STATUS_UPDATE_KEYS, ...extra].sort());
  if (update.contact !== null) expect(keysOf(update.contact as object)).toEqual(CONTACT_KEYS);
  if (update.cta !== null) expect(keysOf(update.cta as object)).toEqual(CTA_KEYS);
}

function fullUpdate(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    channel: 'email',
    stage: 'waiting_on_customer',
    what_happened: 'We looked at your photos',
    what_happens_next: 'We need one more',
    what_we_need_from_you: 'A photo of the rear bumper',
    expected_next_update_by: daysAhead(3),
    cta: { label: 'Upload a photo', url: 'https://portal.example/upload' },
    contact: { phone: '+14155550199', email: 'ann@insurer.example' },
    portal_url: 'https://portal.example/claims/1',
    language: 'en',
    ...overrides,
  };
}

/** Each key the StatusUpdate does not list, at every level a caller could put one. */
const EXTRA_KEYS: [string, (update: Record<string, unknown>) => Record<string, unknown>, string][] = [
  ['contact.name', (u) => ({ ...u, contact: { ...(u.contact as object), name: 'Ann Adjuster' } }), '/contact/name'],
  ['cta.method', (u) => ({ ...u, cta: { ...(u.cta as object), method: 'GET' } }), '/cta/method'],
  ['closing_reason', (u) => ({ ...u, stage: 'closed', closing_reason: 'paid' }), '/closing_reason'],
  ['closing_rationale', (u) => ({ ...u, closing_rationale: 'Because' }), '/closing_rationale'],
  ['update_id', (u) => ({ ...u, update_id: randomUUID() }), '/update_id'],
];

describe('a StatusUpdate is exactly the thirteen fields, contact {phone, email} and cta {label, url}, on every path', () => {
  let t: ClaimsTestService;

  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const claimFile = async (claimId: string) =>
    (
      await request(t.url)
        .get(`/api/claims/claims/${claimId}`)
        .set('Authorization', await as.reader())
        .expect(200)
    ).body;
  const claimantStatus = async (claimId: string, token: string) =>
    (await request(t.url).get(`/api/claims/public/claims/${claimId}/status`).set('Authorization', `Bearer ${token}`).expect(200)).body;

  it.each(EXTRA_KEYS)(
    'refuses %s in the body of POST …/status-updates (400 at its pointer), storing nothing',
    async (_key, add, pointer) => {
      const claim = await insertTestClaim(t.db, { stage: 'estimate' });
      const response = await request(t.url)
        .post(`/api/claims/claims/${claim.claim_id}/status-updates`)
        .set('Authorization', await as.decider())
        .send(add(fullUpdate()));
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
      expect(await t.db('status_updates').where({ claim_id: claim.claim_id }).count({ n: '*' })).toEqual([{ n: '0' }]);
    },
  );

  it.each(EXTRA_KEYS)(
    'refuses %s in the status_update of POST …/closing (400 at its pointer), changing nothing',
    async (_key, add, pointer) => {
      const claim = await insertTestClaim(t.db, { stage: 'estimate' });
      const response = await request(t.url)
        .post(`/api/claims/claims/${claim.claim_id}/closing`)
        .set('Authorization', await as.decider())
        .send({ reason: 'paid', status_update: add(fullUpdate({ stage: 'closed' })) });
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(`/status_update${pointer}`);
      expect(await t.db('claims').where({ id: claim.claim_id }).first('stage')).toEqual({ stage: 'estimate' });
    },
  );

  it('returns exactly the shape from intake, status-updates, closing, withdrawal, the claim file, the claimant view and the events', async () => {
    const filed = await fileClaim(t.url);
    const intake = filed as unknown as { status: Record<string, unknown> };
    expectExactShape(intake.status);

    const posted = await request(t.url)
      .post(`/api/claims/claims/${filed.claim_id}/status-updates`)
      .set('Authorization', await as.decider())
      .send(fullUpdate({ stage: 'triage' }))
      .expect(201);
    expectExactShape(posted.body);
    const read = await request(t.url)
      .get(posted.headers.location)
      .set('Authorization', await as.reader())
      .expect(200);
    expectExactShape(read.body);

    await arrangePaidClaim(t.db, filed.claim_id);
    const closed = await request(t.url)
      .post(`/api/claims/claims/${filed.claim_id}/closing`)
      .set('Authorization', await as.decider())
      .send({ reason: 'paid', status_update: fullUpdate({ stage: 'closed', what_we_need_from_you: null, cta: null }) })
      .expect(201);
    expect(keysOf(closed.body)).toEqual(['claim_id', 'closed_at', 'rationale', 'reason', 'stage', 'status_update', 'update_id']);
    expectExactShape(closed.body.status_update);

    const file = await claimFile(filed.claim_id);
    expect(file.status_updates).toHaveLength(3);
    for (const stored of file.status_updates) expectExactShape(stored, ['update_id', 'created_at', 'created_by']);

    const view = await claimantStatus(filed.claim_id, filed.access_token);
    expectExactShape(view.latest_update);
    expect(view.history.items).toHaveLength(3);
    for (const item of view.history.items) expectExactShape(item.update);

    const withdrawn = await fileClaim(t.url);
    const withdrawal = await request(t.url)
      .post(`/api/claims/public/claims/${withdrawn.claim_id}/withdraw`)
      .set('Authorization', `Bearer ${withdrawn.access_token}`)
      .expect(200);
    expectExactShape(withdrawal.body.status);

    const updated = () =>
      t.events.received.filter((e) => e.routingKey === 'claim.status_updated' && e.body.data.claim_id === filed.claim_id);
    await t.events.waitFor(() => updated().length >= 2);
    for (const event of updated()) expect(keysOf(event.body.data)).toEqual(STATUS_UPDATED_EVENT_KEYS);
  });

  it('never returns a contact.name an older stored update still holds (rows written before the shape was enforced)', async () => {
    const filed = await fileClaim(t.url);
    // an update stored when contact still took a name
    const [{ update_id }] = await t
      .db('status_updates')
      .where({ claim_id: filed.claim_id })
      .update({ contact: JSON.stringify({ name: 'Old Name', phone: '+14155550199', email: 'old@insurer.example' }) })
      .returning('update_id');
    const stored = await t.db('status_updates').where({ update_id }).first('contact');
    expect(stored.contact).toHaveProperty('name', 'Old Name');

    const read = await request(t.url)
      .get(`/api/claims/claims/${filed.claim_id}/status-updates/${update_id}`)
      .set('Authorization', await as.reader())
      .expect(200);
    expect(read.body.contact).toEqual({ phone: '+14155550199', email: 'old@insurer.example' });
    const [inFile] = (await claimFile(filed.claim_id)).status_updates;
    expect(inFile.contact).toEqual({ phone: '+14155550199', email: 'old@insurer.example' });
    const view = await claimantStatus(filed.claim_id, filed.access_token);
    expect(view.latest_update.contact).toEqual({ phone: '+14155550199', email: 'old@insurer.example' });
    expect(view.history.items[0].update.contact).toEqual({ phone: '+14155550199', email: 'old@insurer.example' });
    expect(JSON.stringify(view)).not.toMatch(/Old Name/);
  });

  it("gives the claimant the contact person's name from the claim's assignment, not from any StatusUpdate", async () => {
    const filed = await fileClaim(t.url);
    expect((await claimantStatus(filed.claim_id, filed.access_token)).contact_name).toBe('Claims team');
    await t.db('claims').where({ id: filed.claim_id }).update({ assignee: 'Ann Adjuster' });
    expect((await claimantStatus(filed.claim_id, filed.access_token)).contact_name).toBe('Ann Adjuster');
  });
});
