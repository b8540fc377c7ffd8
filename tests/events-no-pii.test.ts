import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { clamdScanner, rescanPending } from '../packages/files/src';
import { bearer, eventually, fnolBody, startTestClamd, uniquePolicyNumber, type TestClamd } from '@platform/testing';
import { claimsEventCatalog } from '../services/claims/src/events';
import { announceOverdueActivities } from '../services/claims/src/features/diary/diary-overdue';
import { sweepDeadlines } from '../services/claims/src/features/deadlines/deadline-sweep';
import { pendingAttachmentScans } from '../services/claims/src/features/attachments/attachment-rescan';
import { retainNothing, startClaimsTestService, type ClaimsTestService } from '../services/claims/src/testing/claims-test-service';
import { as, daysAgo, daysAhead } from '../services/claims/src/testing/workflow-fixtures';
import { startAuditTestService, type AuditTestService } from '../services/evidence/src/testing/audit-test-service';

/**
 * Event types this test cannot publish through the claims service's operations, with the reason. Each
 * is still checked to be in the catalog, so a new type has to be driven here or listed with its reason.
 */
const NOT_DRIVEN: Record<string, string> = {
  'witness.consistency_failed':
    'about the evidence audit log, not a claim: its data is checkpoints, sizes and a proof of that log; publishing it needs a ' +
    'rewritten evidence log (tests/witness-hosted.test.ts does that)',
};

/** A claimant whose every personal value is unique to this run, so finding one in an event means it leaked. */
function claimantValues() {
  const tag = randomBytes(5).toString('hex');
  const digits = String(parseInt(tag, 16) % 10_000_000).padStart(7, '0');
  const descriptionWord = `Quixoticgable${tag}`;
  const emailLocal = `ysolde.${tag}`;
  return {
    name: `Ysolde Marchbanks ${tag}`,
    email: `${emailLocal}@example.org`,
    emailLocal,
    phone: `+1628${digits}`,
    description: `Hail broke the ${descriptionWord} window of the shed`,
    descriptionWord,
    policeReport: `PR-${tag}`,
  };
}

const privacyOfficer = () => bearer('privacy:manage', 'privacy-pat');
const usd = (amount: string) => ({ amount, currency: 'USD' });
const pdf = () => Buffer.from(`%PDF-1.4\n% ${randomBytes(8).toString('hex')}\ntrailer\n<< >>\n%%EOF\n`);

/** Which needles a stored value holds (case-insensitive), anywhere in its JSON. */
function needlesIn(value: unknown, needles: string[]): string[] {
  const text = JSON.stringify(value).toLowerCase();
  return needles.filter((needle) => text.includes(needle.toLowerCase()));
}

/**
 * The claims service's events (its outbox) and the audit records the evidence service makes of them, on
 * one exchange: every event type of the catalog published, none holding a value of the claimant's.
 */
describe('events and audit records carry no personal data of the claimant', () => {
  let t: ClaimsTestService;
  let audit: AuditTestService;
  let clamd: TestClamd;
  beforeAll(async () => {
    clamd = await startTestClamd();
    t = await startClaimsTestService({ CLAMD_URL: clamd.url, SCAN_RETRY_INTERVAL_MS: '3600000' });
    audit = await startAuditTestService({ CLAIMS_EXCHANGE: t.config.CLAIMS_EXCHANGE });
  }, 60000);
  afterAll(async () => {
    await audit?.stop();
    await t?.stop();
    await clamd?.close();
  });

  it('publishes every event type of the catalog without any value of the personal fields', async () => {
    const person = claimantValues();
    const needles = [
      person.name,
      person.email,
      person.emailLocal,
      person.phone,
      person.description,
      person.descriptionWord,
      person.policeReport,
    ];
    const writer = await as.writer();
    const decider = await as.decider();
    const officer = await privacyOfficer();
    const fnol = (injuries: boolean) =>
      fnolBody({
        policy_number: uniquePolicyNumber(),
        claimant: { name: person.name, email: person.email, phone: person.phone },
        loss: { date: daysAgo(2), type: 'property_weather', description: person.description },
        injuries,
        police_report_number: person.policeReport,
      });
    const file = async (injuries: boolean) =>
      (await request(t.url).post('/api/claims/public/claims').send(fnol(injuries)).expect(201)).body;
    const claim = await file(true);
    const id = claim.claim_id as string;
    const path = (suffix = '') => `/api/claims/claims/${id}${suffix}`;

    // an attachment left pending while the scanner is down, then decided by the rescan
    await clamd.stop();
    try {
      await request(t.url)
        .post(`/api/claims/public/claims/${id}/attachments`)
        .set('Authorization', `Bearer ${claim.access_token}`)
        .field('document_type', 'photos_of_damage')
        .attach('file', pdf(), `${person.name}.pdf`)
        .expect(201);
    } finally {
      await clamd.start();
    }
    await rescanPending(t.db, clamdScanner(clamd.url, 5000), pendingAttachmentScans(t.files, t.config.CLAIMS_EXCHANGE));

    // triage gates the injury; the escalation's decision assigns the claim
    const triage = await request(t.url).post(path('/run-triage')).set('Authorization', writer).expect(201);
    await request(t.url)
      .post(path(`/escalations/${triage.body.escalation_id}/decision`))
      .set('Authorization', decider)
      .send({ decision: 'accept', rationale: `Injury of ${person.name} confirmed` })
      .expect(200);
    // a read of the claim's personal data, its purpose naming the claimant
    const read = await request(t.url)
      .get(path())
      .set('Authorization', writer)
      .set('Access-Purpose', `Call with ${person.name}`)
      .expect(200);
    const etag = read.headers.etag as string;
    await request(t.url)
      .put(path('/assignee'))
      .set('Authorization', decider)
      .set('If-Match', etag)
      .send({ assignee: 'adjuster-ann' })
      .expect(200);

    // the adjuster's work, with the claimant's values in every free text staff can write
    await request(t.url)
      .post(path('/status-updates'))
      .set('Authorization', writer)
      .send({
        channel: 'email',
        stage: 'inspection',
        what_happened: `${person.name}, we read about ${person.description}`,
        what_happens_next: `We call you on ${person.phone}`,
        what_we_need_from_you: `Report ${person.policeReport}`,
        expected_next_update_by: daysAhead(3),
        contact: { phone: '+14155550199', email: 'ann@insurer.example' },
        language: 'en',
      })
      .expect(201);
    await request(t.url)
      .post(path('/notes'))
      .set('Authorization', writer)
      .send({ body: `${person.name} (${person.email}) called` })
      .expect(201);
    await request(t.url)
      .post(path('/contacts'))
      .set('Authorization', writer)
      .send({ channel: 'call', occurred_at: new Date().toISOString(), note: `Called ${person.phone}` })
      .expect(201);
    await request(t.url)
      .post(path('/activities'))
      .set('Authorization', writer)
      .send({ subject: `Call ${person.name} back`, due_on: daysAgo(1), priority: 'normal' })
      .expect(201);
    await request(t.url)
      .post(path('/reserves'))
      .set('Authorization', writer)
      .send({ cost_category: 'indemnity', amount: usd('20000'), reason: `Roof of ${person.name}` })
      .expect(201);
    const pay = async (amount: string) =>
      request(t.url)
        .post(path('/payments'))
        .set('Authorization', writer)
        .send({
          cost_category: 'indemnity',
          amount: usd(amount),
          payee: { name: person.name, kind: 'claimant' },
          method: 'eft',
          memo: person.email,
        })
        .expect(201);
    const awaiting = await pay('6000.00');
    await request(t.url)
      .post(path(`/payments/${awaiting.body.payment_id}/decision`))
      .set('Authorization', decider)
      .send({ decision: 'rejected', rationale: `Not to ${person.name}` })
      .expect(200);
    const voided = await pay('100.00');
    await request(t.url)
      .post(path(`/payments/${voided.body.payment_id}/void`))
      .set('Authorization', writer)
      .send({ reason: `Duplicate for ${person.name}` })
      .expect(200);
    await pay('1500.00');
    await request(t.url)
      .post(path('/generate-adjuster-kit'))
      .set('Authorization', writer)
      .set('Access-Purpose', `Kit for ${person.name}`) // an injury claim: its personal data is read with a purpose
      .expect(201);

    // the sweeps: an overdue activity and a broken promise of the next update
    await announceOverdueActivities(t.db, t.config.CLAIMS_EXCHANGE);
    await t
      .db('claims')
      .where({ id })
      .update({ next_update_due: new Date(Date.now() - 60_000) });
    await sweepDeadlines(t.db, t.config.CLAIMS_EXCHANGE);

    // a legal hold placed and released, then the claim closed
    const hold = await request(t.url)
      .post(path('/legal-holds'))
      .set('Authorization', officer)
      .send({ reason: `Suit by ${person.name}` })
      .expect(201);
    await request(t.url)
      .post(path(`/legal-holds/${hold.body.hold_id}/release`))
      .set('Authorization', officer)
      .send({ reason: `Settled with ${person.name}` })
      .expect(200);
    await request(t.url)
      .post(path('/closing'))
      .set('Authorization', decider)
      .send({
        reason: 'paid',
        status_update: {
          channel: 'email',
          stage: 'closed',
          what_happened: `We paid ${person.name}`,
          what_happens_next: 'Nothing more',
          what_we_need_from_you: null,
          expected_next_update_by: null,
          contact: { phone: '+14155550199', email: 'ann@insurer.example' },
          language: 'en',
        },
      })
      .expect(201);

    // the same claimant's second claim, withdrawn; then, nothing retained, the claimant erased
    const second = await file(false);
    await request(t.url)
      .post(`/api/claims/public/claims/${second.claim_id}/withdraw`)
      .set('Authorization', `Bearer ${second.access_token}`)
      .expect(200);
    await retainNothing(t.url, officer);
    const { claimant_id: claimantId } = await t.db('claims').where({ id }).first('claimant_id');
    await request(t.url)
      .post(`/api/claims/claimants/${claimantId}/erasure`)
      .set('Authorization', officer)
      .send({ reason: `Request of ${person.name} (${person.email})`, legal_basis: 'consent_withdrawn' })
      .expect(201);

    const rows: { id: string; routing_key: string; payload: unknown }[] = await t.db('outbox').select('id', 'routing_key', 'payload');
    const eventLeaks = rows.flatMap((row) => {
      const found = needlesIn(row.payload, needles);
      return found.length ? [{ type: row.routing_key, found }] : [];
    });
    expect(eventLeaks).toEqual([]);
    const catalogTypes = claimsEventCatalog.kinds.map((kind) => kind.type);
    const seen = new Set(rows.map((row) => row.routing_key));
    expect(catalogTypes.filter((type) => !seen.has(type) && !(type in NOT_DRIVEN))).toEqual([]);
    expect(Object.keys(NOT_DRIVEN).filter((type) => !catalogTypes.includes(type) || seen.has(type))).toEqual([]);

    // each event became an audit record (relayed, consumed), and none holds a value of the claimant's either
    const auditor = await bearer('audit:read', 'examiner');
    const claimEventCount = rows.filter((row) => row.routing_key.startsWith('claim.')).length;
    const records = await eventually(async () => {
      const response = await request(audit.service.url)
        .get('/api/evidence/audit/records')
        .query({ source: 'claims', limit: 500 })
        .set('Authorization', auditor)
        .expect(200);
      const items: { event_id: string; action: string }[] = response.body.items;
      return items.length >= claimEventCount && items;
    }, 20000);
    const claimEventIds = rows.filter((row) => row.routing_key.startsWith('claim.')).map((row) => row.id);
    expect(records.map((record) => record.event_id).sort()).toEqual(claimEventIds.sort());
    const auditLeaks = records.flatMap((record) => {
      const found = needlesIn(record, needles);
      return found.length ? [{ action: record.action, found }] : [];
    });
    expect(auditLeaks).toEqual([]);
  }, 120000);
});
