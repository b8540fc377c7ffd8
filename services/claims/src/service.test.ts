import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { runService, type RunningService } from '@platform/runtime';
import { endlessUpload, testServiceEnv, uniqueName } from '@platform/testing';
import { readClaimsConfig } from './config';
import { claimsMigrations } from './migrations';
import { claimsService } from './service';

describe('claims service skeleton', () => {
  let service: RunningService;
  let cleanup: () => Promise<void>;
  let abandonedUpload: string;

  beforeAll(async () => {
    const testEnv = await testServiceEnv('claims', claimsMigrations);
    cleanup = testEnv.cleanup;
    abandonedUpload = path.join(testEnv.dataDir, 'claims', 'attachments', '.incoming-left-by-a-killed-process');
    mkdirSync(path.dirname(abandonedUpload), { recursive: true });
    writeFileSync(abandonedUpload, 'half a file');
    const config = readClaimsConfig({
      ...testEnv.env,
      CLAIMS_EXCHANGE: uniqueName('claims'),
      HEADERS_TIMEOUT_MS: '1000',
      DB_POOL_MAX: '7',
    });
    service = await runService(claimsService(config), config);
  });
  afterAll(async () => {
    await service?.close();
    await cleanup?.();
  });

  it('is alive, ready on its database, reports the broker as a gauge, and serves its OpenAPI document', async () => {
    await request(service.url).get('/healthz').expect(200);
    const ready = await request(service.url).get('/readyz').expect(200);
    expect(ready.body.checks).toEqual({ database: 'ok' });
    const doc = await request(service.url).get('/openapi.json').expect(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const metrics = await request(service.url).get('/metrics').expect(200);
    expect(metrics.text).toContain('http_requests_total');
    expect(metrics.text).toMatch(/^broker_connection_up\{service="claims"\} 1$/m);
  });

  it('sizes its request pool from DB_POOL_MAX and reports the pools in use, waiting and size on /metrics', async () => {
    const text = (await request(service.url).get('/metrics').expect(200)).text;
    expect(text).toMatch(/^db_pool_size\{pool="requests",service="claims"\} 7$/m);
    expect(text).toMatch(/^db_pool_size\{pool="relay",service="claims"\} 2$/m);
    expect(text).toMatch(/^db_pool_connections_in_use\{pool="requests",service="claims"\} \d+$/m);
    expect(text).toMatch(/^db_pool_connections_waiting\{pool="requests",service="claims"\} 0$/m);
  });

  it('removes temporary upload files a killed process left behind before it accepts uploads', () => {
    expect(existsSync(abandonedUpload)).toBe(false);
    expect(existsSync(path.dirname(abandonedUpload))).toBe(true);
  });

  it('answers unknown paths with a problem+json 404', async () => {
    const response = await request(service.url).get('/nope').expect(404);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(response.body).toMatchObject({ status: 404, title: 'Not found' });
    expect(response.body.request_id).toBeDefined();
  });

  it('answers requests Node cannot parse (oversized headers) with problem+json, not a bare status line', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(service.port, '127.0.0.1', () => {
        socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Huge: ${'h'.repeat(20000)}\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/Content-Type: application\/problem\+json/);
  });

  it('answers headers that never finish with 408 problem+json and closes the connection once HEADERS_TIMEOUT_MS has passed (Node alone held them about 84 s)', async () => {
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(service.port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: '));
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('close', () => resolve(data));
      socket.on('error', () => undefined);
      setTimeout(() => socket.destroy(), 5000);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/Content-Type: application\/problem\+json/);
    expect(Date.now() - started).toBeLessThan(3500);
  });

  it('answers a JSON body that never ends with 413 problem+json as soon as it passes the 1 MiB cap, and closes the connection', async () => {
    const totalBytes = 500 * 1024 * 1024;
    const started = Date.now();
    const outcome = await endlessUpload(
      `${service.url}/api/claims/public/claims`,
      { 'Content-Type': 'application/json' },
      Buffer.from('{"policy_number":"'),
      totalBytes,
    );
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.body)).toMatchObject({ status: 413, title: 'Payload too large' });
    expect(outcome.sentBytes).toBeLessThan(16 * 1024 * 1024); // express.json read all of it (or, never ending, never answered)
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
