import request from 'supertest';
import { bearer, eventually } from '@platform/testing';
import { auditRecordsOfClaim, reportLoss } from './fnol';
import { startPlatform, type PlatformProcess } from './platform-process';

const SECRET = 'embedded-test-secret-0123456789abcdef';

describe('pnpm start with no configuration (embedded PGlite, in-process bus)', () => {
  let platform: PlatformProcess;

  beforeAll(async () => {
    platform = await startPlatform({ AUTH_JWT_SECRET: SECRET });
  }, 120000);
  afterAll(async () => {
    await platform?.stop();
  });

  it('prints one ready line with the URLs', () => {
    expect(platform.readyLine).toContain(platform.gatewayUrl.replace('127.0.0.1', 'localhost'));
    expect(platform.readyLine).toMatch(/embedded PGlite/);
  });

  it('answers /readyz through the gateway and at each service', async () => {
    await request(platform.gatewayUrl).get('/readyz').expect(200);
    await request(platform.claimsUrl).get('/readyz').expect(200);
    await request(platform.evidenceUrl).get('/readyz').expect(200);
  });

  it('carries a claim from intake through the in-process bus into the evidence audit log', async () => {
    const claim = await reportLoss(platform.gatewayUrl);
    const auditor = await bearer('audit:read', 'examiner', { secret: SECRET });
    const records = await eventually(async () => {
      const found = await auditRecordsOfClaim(platform.gatewayUrl, auditor, claim.claim_id);
      return found.length > 0 && found;
    }, 15000);
    expect(records.map((record) => record.action)).toEqual(['claim.created']);
  });

  it('exits cleanly on SIGTERM', async () => {
    const code = await platform.stop();
    expect(code).toBe(0);
    platform = undefined as unknown as PlatformProcess;
  });
});

describe('pnpm start in production mode', () => {
  it('refuses the embedded defaults and the development secret', async () => {
    await expect(startPlatform({ NODE_ENV: 'production' }, 30000)).rejects.toThrow(/exited with 1[\s\S]*must be set in production/);
  }, 40000);
});
