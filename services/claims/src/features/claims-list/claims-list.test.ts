import request from 'supertest';
import { compile } from '@platform/http';
import { bearer } from '@platform/testing';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { daysAgo, daysAhead, insertTestClaim } from '../../testing/workflow-fixtures';
import { claimsListResponseSchema } from './claims-list-schemas';

const PATH = '/api/claims/claims';

describe('GET /api/claims/claims', () => {
  let t: ClaimsTestService;
  let reader: string;
  const ids: string[] = [];

  beforeAll(async () => {
    t = await startClaimsTestService();
    reader = await bearer('claims:read');
    for (let i = 0; i < 5; i += 1) {
      const claim = await fileClaim(t.url, {
        policy_number: `POL-LIST-${i}`,
        claimant: { name: `Person ${i}`, email: `p${i}@example.com` },
      });
      ids.push(claim.claim_id);
    }
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** `authorization: null` sends no Authorization header. */
  const list = (query: string, authorization: string | null = reader) => {
    const call = request(t.url).get(`${PATH}${query}`);
    return authorization === null ? call : call.set('Authorization', authorization);
  };

  it('answers 401 without credentials and 403 without claims:read', async () => {
    await list('', null).expect(401);
    await list('', await bearer('claims:write')).expect(403);
    await list('', await bearer('claims:read', 'x', { secret: 'another-secret-that-is-long-enough-000000' })).expect(401);
  });

  it.each([
    ['an unknown parameter', '?sort=asc'],
    ['an unknown stage', '?stage=lost'],
    ['a limit of 0', '?limit=0'],
    ['a limit over 100', '?limit=101'],
    ['a limit that is not a number', '?limit=ten'],
    ['overdue other than true', '?overdue=false'],
    ['escalation other than open', '?escalation=decided'],
    ['a created_from that is not a timestamp', '?created_from=yesterday'],
    ['a repeated queue', '?queue=a&queue=b'],
    ['a queue with a NUL character', '?queue=fast%00track'],
    ['a year the database cannot hold', '?created_from=0000-01-01T00:00:00Z'],
    [
      'a cursor in year 0',
      `?cursor=${Buffer.from('{"c":"0000-01-01T00:00:00.000000Z","i":"2b1f0d5e-1111-4111-8111-111111111111"}').toString('base64url')}`,
    ],
    ['a created_from offset beyond -15:59', '?created_from=2026-01-01T00:00:00-16:00'],
    ['a created_to offset of +20:00', '?created_to=2026-01-01T00:00:00%2B20:00'],
    ['an impossible created_to date', '?created_to=2026-02-30T00:00:00Z'],
    [
      'a crafted cursor on February 30',
      `?cursor=${Buffer.from('{"c":"2026-02-30T00:00:00.000000Z","i":"2b1f0d5e-1111-4111-8111-111111111111"}').toString('base64url')}`,
    ],
    [
      'a crafted cursor at hour 24',
      `?cursor=${Buffer.from('{"c":"2026-01-01T24:00:00.000000Z","i":"2b1f0d5e-1111-4111-8111-111111111111"}').toString('base64url')}`,
    ],
    ['a nested parameter', '?stage[x]=intake'],
    ['a cursor that is not base64url', '?cursor=%25%25%25'],
    ['a cursor this service did not issue', `?cursor=${Buffer.from('{"c":"2026-01-01","i":"x"}').toString('base64url')}`],
  ])('answers 400 for %s', async (_what, query) => {
    const response = await list(query).expect(400);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it('answers 422 when created_from is not before created_to', async () => {
    await list('?created_from=2026-11-02T00:00:00Z&created_to=2026-11-01T00:00:00Z').expect(422);
  });

  it('lists claims newest first as ClaimSummary items', async () => {
    const response = await list('').expect(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(compile(claimsListResponseSchema)(response.body)).toBe(true);
    expect(response.body.items.map((item: { claim_id: string }) => item.claim_id)).toEqual([...ids].reverse());
    expect(response.body.items[0]).toMatchObject({
      stage: 'intake',
      policy_number: 'POL-LIST-4',
      loss_type: 'auto_collision',
      claimant_name: 'Person 4',
      queue: null,
      escalation: null,
    });
    expect(response.body.next_cursor).toBeNull();
  });

  it('pages with an opaque cursor, each claim once, ending with next_cursor null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response: request.Response = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
      expect(response.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...response.body.items.map((item: { claim_id: string }) => item.claim_id));
      cursor = response.body.next_cursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toEqual([...ids].reverse());
    expect(pages).toBe(3);
  });

  it('filters by stage (repeatable), queue and creation time (half-open)', async () => {
    await t.db('claims').where({ id: ids[0] }).update({ stage: 'assigned', queue: 'fast_track' });
    await t.db('claims').where({ id: ids[1] }).update({ stage: 'estimate', queue: 'standard' });
    const byStage = await list('?stage=assigned&stage=estimate').expect(200);
    expect(byStage.body.items.map((item: { claim_id: string }) => item.claim_id)).toEqual([ids[1], ids[0]]);
    const byQueue = await list('?queue=fast_track').expect(200);
    expect(byQueue.body.items.map((item: { claim_id: string }) => item.claim_id)).toEqual([ids[0]]);

    const created = await t.db('claims').whereIn('id', [ids[2], ids[3]]).orderBy('created_at').select('created_at');
    const from = new Date(created[0].created_at).toISOString();
    const to = new Date(created[1].created_at).toISOString();
    const window = await list(`?created_from=${from}&created_to=${to}`).expect(200);
    expect(window.body.items.map((item: { claim_id: string }) => item.claim_id)).toEqual([ids[2]]);
  });

  it('filters overdue claims: next update promised in the past, not closed', async () => {
    const past = new Date(Date.now() - 3600_000);
    await t.db('claims').where({ id: ids[2] }).update({ next_update_due: past });
    await t.db('claims').where({ id: ids[3] }).update({ next_update_due: past, stage: 'closed' });
    const response = await list('?overdue=true').expect(200);
    expect(response.body.items.map((item: { claim_id: string }) => item.claim_id)).toEqual([ids[2]]);
  });

  it('filters claims with an open diary activity due before today, not one due today or completed', async () => {
    const activity = (claimId: string, dueOn: string, completed = false) =>
      t.db('claim_activities').insert({
        id: crypto.randomUUID(),
        claim_id: claimId,
        subject: 'Call back',
        due_on: dueOn,
        priority: 'normal',
        assignee: 'adjuster-7',
        created_by: 'adjuster-7',
        ...(completed ? { completed_by: 'adjuster-7', completed_at: new Date() } : {}),
      });
    await activity(ids[0], daysAgo(1));
    await activity(ids[1], daysAhead(0));
    await activity(ids[4], daysAgo(3), true);
    const response = await list('?activity_overdue=true').expect(200);
    expect(response.body.items.map((item: { claim_id: string }) => item.claim_id)).toEqual([ids[0]]);
    await list('?activity_overdue=false').expect(400);
  });

  it('filters and marks claims with an open escalation', async () => {
    const injured = await fileClaim(t.url, {
      policy_number: 'POL-INJURY',
      injuries: true,
      claimant: { name: 'Hurt', email: 'hurt@example.com' },
    });
    const triage = await request(t.url)
      .post(`/api/claims/claims/${injured.claim_id}/run-triage`)
      .set('Authorization', await bearer('claims:write'))
      .expect(201);
    expect(triage.body.outcome).toBe('pending_human_decision');
    const response = await list('?escalation=open').expect(200);
    expect(response.body.items.map((item: { claim_id: string }) => item.claim_id)).toEqual([injured.claim_id]);
    expect(response.body.items[0].escalation).toBe('open');
  });
});

describe('GET /api/claims/claims?sort= — the queue sorted by a column, paged by its cursor', () => {
  let t: ClaimsTestService;
  let reader: string;
  const claims: { id: string; amount: number | null; loss_type: string; severity: number | null }[] = [];

  beforeAll(async () => {
    t = await startClaimsTestService();
    reader = await bearer('claims:read');
    const writer = await bearer('claims:read claims:write', 'ada');
    const filed: [string | null, string, boolean][] = [
      ['900.00', 'auto_glass', true],
      ['15000.00', 'property_fire', false],
      [null, 'injury', true],
      ['2500.50', 'auto_collision', false],
      ['900.00', 'liability', true],
    ];
    for (const [amount, lossType, triage] of filed) {
      const { claim_id } = await insertTestClaim(t.db, { estimated_amount: amount, loss_type: lossType });
      let severity: number | null = null;
      if (triage) {
        const run = await request(t.url).post(`${PATH}/${claim_id}/run-triage`).set('Authorization', writer).expect(201);
        severity = run.body.score as number;
      }
      claims.push({ id: claim_id, amount: amount === null ? null : Number(amount), loss_type: lossType, severity });
    }
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** Every claim of the list in `sort`, two a page. */
  const allPages = async (sort: string) => {
    const seen: { claim_id: string; estimated_amount: unknown; severity: number | null }[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: { items: typeof seen; next_cursor: string | null } = (
        await request(t.url)
          .get(PATH)
          .query({ sort, limit: 2, ...(cursor ? { cursor } : {}) })
          .set('Authorization', reader)
          .expect(200)
      ).body;
      expect(compile(claimsListResponseSchema)(page)).toBe(true);
      seen.push(...page.items);
      cursor = page.next_cursor;
    }
    return seen;
  };
  // created in order, so among equal values the later one is newer
  const order = (value: (claim: (typeof claims)[number]) => number | string, direction: 1 | -1) =>
    claims
      .map((claim, index) => ({ claim, index }))
      .sort((a, b) => {
        const [x, y] = [value(a.claim), value(b.claim)];
        return (x < y ? -1 : x > y ? 1 : a.index - b.index) * direction;
      })
      .map(({ claim }) => claim.id);

  it.each([
    ['-estimated_amount', (claim: (typeof claims)[number]) => claim.amount ?? -1, -1],
    ['estimated_amount', (claim: (typeof claims)[number]) => claim.amount ?? -1, 1],
    ['-severity', (claim: (typeof claims)[number]) => claim.severity ?? -1, -1],
    ['loss_type', (claim: (typeof claims)[number]) => claim.loss_type, 1],
    ['created_at', () => 0, 1],
    ['-created_at', () => 0, -1],
  ] as const)('sorts by %s across pages, none twice or missed', async (sort, value, direction) => {
    expect((await allPages(sort)).map((item) => item.claim_id)).toEqual(order(value, direction));
  });

  it('carries the amount and the severity on each summary', async () => {
    const items = await allPages('-created_at');
    const fire = items.find((item) => item.claim_id === claims[1].id)!;
    expect(fire.estimated_amount).toEqual({ amount: '15000.00', currency: 'USD' });
    expect(fire.severity).toBeNull();
    const glass = items.find((item) => item.claim_id === claims[0].id)!;
    expect(glass.severity).toBe(claims[0].severity);
  });

  it('refuses a cursor of another sort (400), an unknown sort (400) and a sort with a search (422)', async () => {
    const first = await request(t.url).get(PATH).query({ sort: '-severity', limit: 1 }).set('Authorization', reader).expect(200);
    await request(t.url)
      .get(PATH)
      .query({ sort: '-estimated_amount', cursor: first.body.next_cursor })
      .set('Authorization', reader)
      .expect(400);
    await request(t.url).get(PATH).query({ cursor: first.body.next_cursor }).set('Authorization', reader).expect(400);
    await request(t.url).get(PATH).query({ sort: 'claimant_name' }).set('Authorization', reader).expect(400);
    await request(t.url).get(PATH).query({ sort: 'severity', q: 'Ruiz' }).set('Authorization', reader).expect(422);
    const crafted = Buffer.from(
      JSON.stringify({ c: '2026-01-01T00:00:00.000000Z', i: '2b1f0d5e-1111-4111-8111-111111111111', o: '-severity', s: "1'; --" }),
    ).toString('base64url');
    await request(t.url).get(PATH).query({ sort: '-severity', cursor: crafted }).set('Authorization', reader).expect(400);
  });
});
