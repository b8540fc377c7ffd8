import request from 'supertest';
import { startPlatform, type PlatformProcess } from './platform-process';

describe('pnpm start with no configuration (embedded PGlite, in-process bus)', () => {
  let platform: PlatformProcess;

  beforeAll(async () => {
    platform = await startPlatform();
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
