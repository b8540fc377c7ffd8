import request from 'supertest';
import { compile } from '@platform/http';
import { bearer } from '@platform/testing';
import { countRows, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { fileTestClaim } from '../../testing/workflow-fixtures';
import { notesPageSchema, noteSchema } from './notes-schemas';

describe('internal notes on a claim (POST/GET …/notes)', () => {
  let t: ClaimsTestService;
  let ann = '';
  let reader = '';

  beforeAll(async () => {
    t = await startClaimsTestService();
    ann = await bearer('claims:read claims:write', 'adjuster-ann');
    reader = await bearer('claims:read', 'viewer-vic');
  });
  afterAll(async () => {
    await t?.stop();
  });

  const add = (claimId: string, body: object, auth = ann) =>
    request(t.url).post(`/api/claims/claims/${claimId}/notes`).set('Authorization', auth).send(body);
  const list = (claimId: string, query = '') =>
    request(t.url).get(`/api/claims/claims/${claimId}/notes${query}`).set('Authorization', reader);

  it('appends notes and a correction naming the note it corrects; lists both newest first, cursor-paged', async () => {
    const claim = await fileTestClaim(t.url);
    const first = await add(claim.claim_id, { body: 'Called the shop: parts Thursday', topic: 'repair' }).expect(201);
    expect(compile(noteSchema)(first.body)).toBe(true);
    expect(first.body).toMatchObject({ author: 'adjuster-ann', topic: 'repair', corrects: null });
    const second = await add(claim.claim_id, { body: 'Second note' }).expect(201);
    const correction = await add(claim.claim_id, { body: 'Parts arrive Friday, not Thursday', corrects: first.body.note_id }).expect(201);
    expect(correction.body.corrects).toBe(first.body.note_id);

    const page1 = await list(claim.claim_id, '?limit=2').expect(200);
    expect(compile(notesPageSchema)(page1.body)).toBe(true);
    expect(page1.body.items.map((n: { note_id: string }) => n.note_id)).toEqual([correction.body.note_id, second.body.note_id]);
    const page2 = await list(claim.claim_id, `?limit=2&cursor=${page1.body.next_cursor}`).expect(200);
    expect(page2.body).toEqual({ items: [first.body], next_cursor: null });
    await list(claim.claim_id, '?cursor=bogus').expect(400);
    await expect(t.db('claim_notes').where({ id: first.body.note_id }).update({ body: 'x' })).rejects.toThrow(/append-only/);
    await expect(t.db('claim_notes').where({ id: first.body.note_id }).delete()).rejects.toThrow(/append-only/);
  });

  it('takes 10,000 characters and refuses 10,001, an empty body, a note of another claim (nothing written)', async () => {
    const claim = await fileTestClaim(t.url);
    const other = await fileTestClaim(t.url);
    const foreign = await add(other.claim_id, { body: 'Elsewhere' }).expect(201);
    await add(claim.claim_id, { body: 'x'.repeat(10000) }).expect(201);
    const before = await countRows(t.db);
    const notes = Number((await t.db('claim_notes').count({ n: '*' }))[0].n);
    await add(claim.claim_id, { body: 'x'.repeat(10001) }).expect(400);
    await add(claim.claim_id, { body: '   ' }).expect(400);
    await add(claim.claim_id, { body: 'ok', unknown: 1 }).expect(400);
    await add(claim.claim_id, { body: 'ok', corrects: foreign.body.note_id }).expect(422);
    await add(claim.claim_id, { body: 'ok' }, reader).expect(403);
    await request(t.url).post(`/api/claims/claims/${claim.claim_id}/notes`).send({ body: 'ok' }).expect(401);
    await add('2b1f0d5e-1111-4111-8111-111111111111', { body: 'ok' }).expect(404);
    expect(await countRows(t.db)).toEqual(before);
    expect(Number((await t.db('claim_notes').count({ n: '*' }))[0].n)).toBe(notes);
  });

  it('keeps the text out of the event, the timeline and the claimant view: id and author only', async () => {
    const claim = await fileTestClaim(t.url);
    const secret = 'Suspect the claimant staged the loss';
    const note = await add(claim.claim_id, { body: secret, topic: 'SIU referral' }).expect(201);
    const ofClaim = (received: typeof t.events.received) =>
      received.filter((e) => e.routingKey === 'claim.note_added' && e.body.subject === claim.claim_id);
    const [event] = ofClaim(await t.events.waitFor((received) => ofClaim(received).length >= 1));
    expect(event.body.data).toEqual({ claim_id: claim.claim_id, actor: 'adjuster-ann', note_id: note.body.note_id, corrects: null });
    const audit = await t.db('claim_audit').where({ claim_id: claim.claim_id, action: 'claim.note_added' }).select('reason', 'data');
    expect(JSON.stringify(audit)).not.toContain('SIU');
    expect(JSON.stringify(audit)).not.toContain(secret);
    const portal = await request(t.url)
      .get(`/api/claims/public/claims/${claim.claim_id}/status`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .expect(200);
    expect(JSON.stringify(portal.body)).not.toContain(secret);
  });
});
