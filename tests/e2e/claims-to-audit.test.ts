import request from 'supertest';
import { bearer, eventually, startStack, type Stack } from '@platform/testing';
import { auditRecordsOfClaim, reportLoss } from './fnol';

describe('the platform as deployed: gateway, claims and evidence processes on PostgreSQL and RabbitMQ', () => {
  let stack: Stack;
  let auditor: string;

  beforeAll(async () => {
    stack = await startStack();
    auditor = await bearer('audit:read', 'examiner');
  }, 120000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('records every claim event created through the gateway exactly once in the audit log', async () => {
    const claims = await Promise.all([1, 2, 3].map(() => reportLoss(stack.gateway.url)));
    for (const claim of claims) {
      const records = await eventually(async () => {
        const found = await auditRecordsOfClaim(stack.gateway.url, auditor, claim.claim_id);
        return found.length > 0 && found;
      }, 15000);
      expect(records.filter((record) => record.action === 'claim.created')).toHaveLength(1);
    }
    const verify = await request(stack.gateway.url).get('/api/evidence/audit/verify').set('Authorization', auditor).expect(200);
    expect(verify.body.valid).toBe(true);
  });

  it('keeps internal routes closed at the gateway and at each service', async () => {
    await request(stack.gateway.url).get('/api/claims/claims').expect(401);
    await request(stack.claims.url).get('/api/claims/claims').expect(401);
    await request(stack.evidence.url).get('/api/evidence/audit/verify').expect(401);
  });
});
