import request from 'supertest';
import { bearer } from '@platform/testing';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { insertTestClaim } from '../../testing/workflow-fixtures';
import { indexClaimantName, nameIndexKey } from './claimant-name-index';

const PATH = '/api/claims/claims';

describe('GET /api/claims/claims?q= (search) and the assignment work lists', () => {
  let t: ClaimsTestService;
  let reader: string;
  const claims: Record<string, { claim_id: string; claim_number: string }> = {};

  beforeAll(async () => {
    t = await startClaimsTestService();
    reader = await bearer('claims:read', 'alice');
    const people: [string, string, string, string][] = [
      ['ruiz', 'Ana Ruiz', 'ana.ruiz@example.com', '+14155550100'],
      ['gonzalez', 'María Gonzalez', 'maria@example.org', '+34911234567'],
      ['ruizdiaz', 'Pedro Ruiz Diaz', 'pedro@example.net', '+5491144445555'],
      ['smith', 'John Smith', 'john.smith@example.com', '+447700900123'],
    ];
    for (const [key, name, email, phone] of people) {
      claims[key] = await fileClaim(t.url, { policy_number: `POL-${key.toUpperCase()}-9`, claimant: { name, email, phone } });
    }
  });
  afterAll(async () => {
    await t?.stop();
  });

  const ids = async (query: string) => {
    const response = await request(t.url).get(`${PATH}${query}`).set('Authorization', reader).expect(200);
    return response.body.items.map((item: { claim_id: string }) => item.claim_id) as string[];
  };

  it.each([
    ['the claim number', () => claims.smith.claim_number, 'smith'],
    ['the policy number, any case', () => 'pol-gonzalez-9', 'gonzalez'],
    ['a misspelt name', () => 'Maria Gonzales', 'gonzalez'],
    ['a partial word of the name', () => 'Gonza', 'gonzalez'],
    ['the email', () => 'JOHN.SMITH@example.com', 'smith'],
    ['the phone written another way', () => '+44 7700 900123', 'smith'],
  ])('finds a claim by %s', async (_what, q, key) => {
    expect((await ids(`?q=${encodeURIComponent(q())}`))[0]).toBe(claims[key].claim_id);
  });

  it('ranks the exact name first, then the partial match', async () => {
    const found = await ids('?q=ana%20ruiz');
    expect(found[0]).toBe(claims.ruiz.claim_id);
    expect(await ids('?q=ruiz')).toEqual(expect.arrayContaining([claims.ruiz.claim_id, claims.ruizdiaz.claim_id]));
  });

  it('combines the search with filters and pages through it with its cursor', async () => {
    await t.db('claims').where({ id: claims.ruizdiaz.claim_id }).update({ assignee: 'alice' });
    expect(await ids('?q=ruiz&assignee=me')).toEqual([claims.ruizdiaz.claim_id]);
    expect(await ids('?q=ruiz&unassigned=true')).toEqual([claims.ruiz.claim_id]);
    expect(await ids('?q=ruiz&stage=triage')).toEqual([]);

    const first = await request(t.url).get(`${PATH}?q=ruiz&limit=1`).set('Authorization', reader).expect(200);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await request(t.url)
      .get(`${PATH}?q=ruiz&limit=1&cursor=${first.body.next_cursor}`)
      .set('Authorization', reader)
      .expect(200);
    const both = [...first.body.items, ...second.body.items].map((item: { claim_id: string }) => item.claim_id);
    expect(both.sort()).toEqual([claims.ruiz.claim_id, claims.ruizdiaz.claim_id].sort());
    expect(second.body.next_cursor).toBeNull();

    // a search cursor continues only its own search
    await request(t.url).get(`${PATH}?q=smith&cursor=${first.body.next_cursor}`).set('Authorization', reader).expect(400);
    await request(t.url).get(`${PATH}?cursor=${first.body.next_cursor}`).set('Authorization', reader).expect(400);
  });

  it('lists work by assignee: me, another sub, or nobody', async () => {
    await t.db('claims').where({ id: claims.smith.claim_id }).update({ assignee: 'bob' });
    expect(await ids('?assignee=bob')).toEqual([claims.smith.claim_id]);
    expect(await ids('?assignee=me')).toEqual([claims.ruizdiaz.claim_id]);
    expect(await ids('?unassigned=true')).toEqual([claims.gonzalez.claim_id, claims.ruiz.claim_id]);
  });

  it.each([
    ['a q of 2 characters', '?q=ab'],
    ['a blank q', '?q=%20%20%20'],
    ['a q over 100 characters', `?q=${'a'.repeat(101)}`],
    ['unassigned other than true', '?unassigned=false'],
    [
      'a crafted search cursor',
      `?q=ruiz&cursor=${Buffer.from('{"c":"2026-01-01T00:00:00.000000Z","i":"2b1f0d5e-1111-4111-8111-111111111111","r":2,"q":"x"}').toString('base64url')}`,
    ],
  ])('answers 400 for %s', async (_what, query) => {
    const response = await request(t.url).get(`${PATH}${query}`).set('Authorization', reader).expect(400);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it('answers 422 for assignee and unassigned=true together', async () => {
    await request(t.url).get(`${PATH}?assignee=me&unassigned=true`).set('Authorization', reader).expect(422);
  });

  it('treats LIKE wildcards in q as text', async () => {
    expect(await ids('?q=%25%25%25')).toEqual([]);
  });

  it('pages a first name with part of a surname best match first, ties newest first, without duplicates or gaps', async () => {
    // "Amara Kig": the first name alone passes the similarity threshold, so every Amara is found — King (0.8), Kelly (0.7), Smith (0.6).
    // Filed oldest first, so the index's order among equal names is not the page's (newest first).
    const surnames = ['King', 'Kelly', 'Smith', 'King', 'Kelly', 'Smith', 'King', 'Kelly', 'Smith', 'King'];
    const filed: { id: string; surname: string }[] = [];
    for (const [i, surname] of surnames.entries()) {
      const { claim_id } = await insertTestClaim(t.db);
      await t
        .db('claims')
        .where({ id: claim_id })
        .update({ claimant_name: `Amara ${surname}`, assignee: 'carol', created_at: new Date(Date.UTC(2026, 0, 1, 0, i)) });
      await indexClaimantName(t.db, claim_id, `Amara ${surname}`, await nameIndexKey(t.privacy, t.dataDir).on());
      filed.push({ id: claim_id, surname });
    }
    const newestFirst = (surname: string) =>
      filed
        .filter((claim) => claim.surname === surname)
        .map((claim) => claim.id)
        .reverse();
    const expected = [...newestFirst('King'), ...newestFirst('Kelly'), ...newestFirst('Smith')];

    const paged: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: { items: { claim_id: string }[]; next_cursor: string | null } = (
        await request(t.url)
          .get(PATH)
          .query({ q: 'Amara Kig', assignee: 'carol', limit: 2, ...(cursor ? { cursor } : {}) })
          .set('Authorization', reader)
          .expect(200)
      ).body;
      paged.push(...page.items.map((item) => item.claim_id));
      cursor = page.next_cursor;
    }
    expect(paged).toEqual(expected);

    // the filters narrow the nearest names before a page of them is taken: the one Smith of another assignee is found
    const smith = filed.find((claim) => claim.surname === 'Smith')!;
    await t.db('claims').where({ id: smith.id }).update({ assignee: 'dave' });
    expect(await ids(`?q=Amara%20Kig&assignee=dave&limit=1`)).toEqual([smith.id]);
  });
});
