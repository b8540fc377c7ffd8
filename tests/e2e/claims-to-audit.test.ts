import request from 'supertest';
import { bearer, eventually } from '@platform/testing';
import { auditRecordsOfClaim, reportLoss } from './fnol';
import { JOURNEY_MODES, startJourneyPlatform, type JourneyMode, type JourneyPlatform } from './journey-platform';

describe.each(JOURNEY_MODES)('claims to the audit log through the gateway, %s', (_shape: string, mode: JourneyMode) => {
  let stack: JourneyPlatform;
  let auditor: string;

  beforeAll(async () => {
    stack = await startJourneyPlatform(mode);
    auditor = await bearer('audit:read', 'examiner');
  }, 120000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('records every claim event created through the gateway exactly once in the audit log', async () => {
    const claims = await Promise.all([1, 2, 3].map(() => reportLoss(stack.gatewayUrl)));
    for (const claim of claims) {
      const records = await eventually(async () => {
        const found = await auditRecordsOfClaim(stack.gatewayUrl, auditor, claim.claim_id);
        return found.length > 0 && found;
      }, 15000);
      expect(records.filter((record) => record.action === 'claim.created')).toHaveLength(1);
    }
    const verify = await request(stack.gatewayUrl).get('/api/evidence/audit/verify').set('Authorization', auditor).expect(200);
    expect(verify.body.valid).toBe(true);
  });

  it('keeps internal routes closed at the gateway and at each service', async () => {
    await request(stack.gatewayUrl).get('/api/claims/claims').expect(401);
    await request(stack.claimsUrl).get('/api/claims/claims').expect(401);
    await request(stack.evidenceUrl).get('/api/evidence/audit/verify').expect(401);
  });
});
