import http from 'node:http';
import request from 'supertest';
import { DEV_JWT_SECRET, signDevToken } from '@platform/auth';
import type { RunningServer } from '@platform/http';
import { TEST_JWT_SECRET, bearer } from '@platform/testing';
import { startFakeUpstream, testGatewayConfig, type FakeUpstream } from './gateway-test-kit';
import { startGateway } from './gateway';

/** A GET whose path goes on the wire exactly as given (supertest's URL parser would rewrite `\` to `/`). */
function rawGet(baseUrl: string, path: string): Promise<{ status: number; contentType: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}/`, { path, method: 'GET' }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type']) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('gateway access control', () => {
  let claims: FakeUpstream;
  let evidence: FakeUpstream;
  let gateway: RunningServer;
  let token: string;

  beforeAll(async () => {
    claims = await startFakeUpstream();
    evidence = await startFakeUpstream();
    gateway = await startGateway(testGatewayConfig({ CLAIMS_URL: claims.url, EVIDENCE_URL: evidence.url }));
    token = await bearer('claims:read evidence:write', 'alice');
  });
  afterAll(async () => {
    await gateway?.close();
    await claims?.close();
    await evidence?.close();
  });
  beforeEach(() => {
    claims.received.length = 0;
    evidence.received.length = 0;
  });

  const nothingForwarded = () => {
    expect(claims.received).toEqual([]);
    expect(evidence.received).toEqual([]);
  };

  describe('internal group without valid credentials is refused with 401 and never forwarded', () => {
    it.each([
      ['no Authorization header', undefined],
      ['a Basic header', 'Basic YWxpY2U6c2VjcmV0'],
      ['an empty Bearer', 'Bearer '],
      ['a token that is not a JWT', 'Bearer not-a-jwt'],
    ])('%s', async (_case, authorization) => {
      const call = request(gateway.url).get('/api/claims/claims');
      if (authorization !== undefined) call.set('Authorization', authorization);
      const response = await call.expect(401);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.body).toMatchObject({
        status: 401,
        title: 'Unauthorized',
        instance: '/api/claims/claims',
        request_id: response.headers['x-request-id'],
      });
      nothingForwarded();
    });

    it('a token signed with another secret', async () => {
      const forged = await bearer('claims:read', 'mallory', { secret: 'another-secret-another-secret-another-secret' });
      await request(gateway.url).get('/api/evidence/runs').set('Authorization', forged).expect(401);
      nothingForwarded();
    });

    it('an expired token', async () => {
      const expired = await bearer('claims:read', 'alice', { expiresIn: Math.floor(Date.now() / 1000) - 60 });
      const response = await request(gateway.url).get('/api/claims/claims').set('Authorization', expired).expect(401);
      expect(response.body.detail).toMatch(/expired/);
      nothingForwarded();
    });

    it('an unsigned token (alg: none)', async () => {
      const exp = Math.floor(Date.now() / 1000) + 600;
      const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: 'mallory', scope: 'claims:read audit:read', exp })}.`;
      await request(gateway.url).get('/api/claims/claims').set('Authorization', `Bearer ${unsigned}`).expect(401);
      nothingForwarded();
    });

    it('a token whose signature was kept but whose payload was changed', async () => {
      const [header, , signature] = (await signDevToken({ sub: 'alice', scope: 'claims:read', secret: TEST_JWT_SECRET })).split('.');
      const tampered = `${header}.${base64url({ sub: 'alice', scope: 'claims:decide', exp: Math.floor(Date.now() / 1000) + 600 })}.${signature}`;
      await request(gateway.url).get('/api/claims/claims').set('Authorization', `Bearer ${tampered}`).expect(401);
      nothingForwarded();
    });
  });

  it('forwards an internal request with a valid token, Authorization included (the service verifies again)', async () => {
    const response = await request(gateway.url).get('/api/claims/claims?stage=triage&limit=5').set('Authorization', token).expect(200);
    expect(response.body).toMatchObject({ method: 'GET', url: '/api/claims/claims?stage=triage&limit=5' });
    expect(response.body.headers.authorization).toBe(token);
    expect(evidence.received).toEqual([]);
  });

  it('routes /api/evidence/** to the evidence service', async () => {
    const response = await request(gateway.url).post('/api/evidence/runs').set('Authorization', token).send({ a: 1 }).expect(200);
    expect(response.body).toMatchObject({ method: 'POST', url: '/api/evidence/runs' });
    expect(claims.received).toEqual([]);
  });

  it('forwards the public group without any token', async () => {
    const response = await request(gateway.url).get('/api/claims/public/claims/abc/status').expect(200);
    expect(response.body).toMatchObject({ method: 'GET', url: '/api/claims/public/claims/abc/status' });
    expect(response.body.headers.authorization).toBeUndefined();
  });

  it('passes a claimant token on the public group through untouched', async () => {
    const response = await request(gateway.url)
      .get('/api/claims/public/claims/abc/status')
      .set('Authorization', 'Bearer claimant-access-token')
      .expect(200);
    expect(response.body.headers.authorization).toBe('Bearer claimant-access-token');
  });

  describe('path tricks never reach an internal route without a token', () => {
    it.each([
      ['dot-dot out of the public group', '/api/claims/public/../claims', 401],
      ['encoded dot-dot', '/api/claims/public/%2e%2e/claims', 401],
      ['upper-case encoded dot-dot', '/api/claims/public/%2E%2E/claims', 401],
      ['half-encoded dot-dot', '/api/claims/public/.%2e/claims', 401],
      ['dot-dot into evidence', '/api/claims/public/../../evidence/runs', 401],
      ['dot-dot above the root', '/api/claims/public/../../../../../api/evidence/audit/verify', 401],
      ['repeated slashes around dot-dot', '//api//claims//public//..//claims', 401],
      ['an empty segment before dot-dot', '/api/claims/public//../claims', 401],
      ['mixed case', '/API/Claims/Public/../claims', 401],
      ['upper-case internal path', '/API/CLAIMS/CLAIMS', 401],
      ['a ;parameter on the public segment', '/api/claims/public;x/../../claims/claims', 401],
      ['an encoded ? in the public segment', '/api/claims/public%3f/../claims', 401],
      ['a query string that looks public', '/api/claims/claims?next=/api/claims/public/', 401],
      ['the public prefix without its slash', '/api/claims/public', 401],
      ['an encoded slash', '/api/claims/public%2f..%2fclaims', 400],
      ['an encoded slash after dot-dot', '/api/claims/public/..%2fclaims', 400],
      ['an encoded backslash', '/api/claims/public/..%5cclaims', 400],
      ['an encoded NUL', '/api/claims/public/%00/../../claims', 400],
      ['a NUL before dot-dot', '/api/claims/public/claims%00/..', 400],
      ['an encoded newline', '/api/claims/public/%0a/../claims', 400],
      ['double-encoded dot-dot', '/api/claims/public/%252e%252e/claims', 400],
      ['double-encoded slash', '/api/claims/public/..%252fclaims', 400],
      ['invalid percent-encoding', '/api/claims/public/%zz/claims', 400],
      ['a truncated escape', '/api/claims/public/%2', 400],
      ['overlong UTF-8 dots', '/api/claims/public/%c0%ae%c0%ae/claims', 400],
      // Text PostgreSQL cannot store: refused here, as the services' refuseUnstorableUrl would.
      ['an encoded lone UTF-16 surrogate', '/api/claims/public/claims/%ed%a0%80/status', 400],
      ['an encoded NUL inside a segment', '/api/claims/public/claims/a%00b/status', 400],
    ])('%s: %s → %i', async (_case, path, status) => {
      const response = await request(gateway.url).get(path).expect(status);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body.status).toBe(status);
      nothingForwarded();
    });

    it.each([
      ['a raw backslash', '/api/claims/public/..\\claims'],
      ['a raw backslash as separator', '/api/claims/public\\..\\claims'],
      ['a raw non-ASCII byte', '/api/claims/public/\u00e9/../claims'],
    ])('%s is refused with 400 (sent byte for byte, not through a URL parser)', async (_case, path) => {
      const response = await rawGet(gateway.url, path);
      expect(response.status).toBe(400);
      expect(response.contentType).toMatch(/^application\/problem\+json/);
      nothingForwarded();
    });

    it.each([
      ['a literal "..;" segment stays inside the public group', '/api/claims/public/..;/claims', '/api/claims/public/..;/claims'],
      ['an encoded "?" stays a path character', '/api/claims/public/..%3F/claims', '/api/claims/public/..%3F/claims'],
      ['a single dot is removed', '/api/claims/public/./claims/x/status', '/api/claims/public/claims/x/status'],
      ['upper-case public prefix is forwarded in canonical form', '/API/CLAIMS/PUBLIC/claims', '/api/claims/public/claims'],
      ['repeated slashes are collapsed', '/api/claims/public//claims///x', '/api/claims/public/claims/x'],
      ['dot-dot within the public group', '/api/claims/public/claims/x/../y', '/api/claims/public/claims/y'],
      ['encoded characters are re-encoded', '/api/claims/public/claims/a%20b', '/api/claims/public/claims/a%20b'],
    ])('%s: forwards the normalised path', async (_case, path, forwarded) => {
      const response = await request(gateway.url).get(path).expect(200);
      expect(response.body.url).toBe(forwarded);
      expect(claims.received.map((r) => r.url)).toEqual([forwarded]);
    });

    it('with a valid token, a dot-dot path reaches the service as the normalised internal path', async () => {
      const response = await request(gateway.url).get('/api/claims/public/%2e%2e/claims?limit=1').set('Authorization', token).expect(200);
      expect(response.body.url).toBe('/api/claims/claims?limit=1');
    });
  });

  it('greets a newcomer at / with the landing page (not a 404 problem), under the pages’ policy, forwarding nothing', async () => {
    const response = await request(gateway.url).get('/').expect(200);
    expect(response.type).toBe('text/html');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).not.toMatch(/unsafe-inline/);
    for (const link of ['/portal', '/workbench', '/workbench/examiner', '/docs']) expect(response.text).toContain(`href="${link}"`);
    nothingForwarded();
  });

  it.each(['/index.html', '/api', '/api/', '/api/claimsx', '/api/other/claims', '/apiclaims', '/favicon.ico', '/api/../etc/passwd'])(
    'answers 404 problem+json outside /api/claims and /api/evidence: %s',
    async (path) => {
      const response = await request(gateway.url).get(path).set('Authorization', token).expect(404);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body).toMatchObject({ status: 404, title: 'Not found' });
      nothingForwarded();
    },
  );

  it('removes client-sent identity and forwarding headers and sets its own', async () => {
    const response = await request(gateway.url)
      .get('/api/claims/public/claims/abc/status')
      .set('Host', 'claims.example.com')
      .set('X-Forwarded-For', '203.0.113.7')
      .set('X-Forwarded-Host', 'evil.example')
      .set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Port', '443')
      .set('Forwarded', 'for=203.0.113.7;proto=https')
      .set('X-Real-IP', '203.0.113.7')
      .set('X-User-Id', 'admin')
      .set('X-User-Scopes', 'audit:read claims:decide')
      .set('X-Internal-Caller', 'evidence')
      .set('X-Internal-Auth', 'trusted')
      .expect(200);
    const headers = response.body.headers as Record<string, string>;
    const names = Object.keys(headers);
    expect(
      names.filter(
        (name) => /^(x-user-|x-internal-)/.test(name) || name === 'forwarded' || name === 'x-real-ip' || name === 'x-forwarded-port',
      ),
    ).toEqual([]);
    expect(headers['x-forwarded-for']).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers['x-forwarded-host']).toBe('claims.example.com');
  });

  it('does not forward hop-by-hop headers (Connection, Upgrade, Proxy-Authorization, …) to the service', async () => {
    const response = await request(gateway.url)
      .get('/api/claims/public/claims/abc/status')
      .set('Connection', 'close')
      .set('Keep-Alive', 'timeout=600')
      .set('Upgrade', 'h2c')
      .set('Proxy-Authorization', 'Basic c2VjcmV0')
      .set('TE', 'trailers')
      .expect(200);
    const names = Object.keys(response.body.headers);
    for (const name of ['keep-alive', 'upgrade', 'proxy-authorization', 'te']) expect(names).not.toContain(name);
    expect(response.body.headers.connection).not.toBe('close');
  });

  it('strips spoofed identity headers on internal requests too', async () => {
    const response = await request(gateway.url)
      .get('/api/evidence/runs')
      .set('Authorization', token)
      .set('X-User-Sub', 'root')
      .set('x-internal-trust', '1')
      .expect(200);
    expect(Object.keys(response.body.headers).filter((name) => /^(x-user-|x-internal-)/.test(name))).toEqual([]);
  });

  it('keeps a valid incoming X-Request-Id, answers with it and passes it upstream', async () => {
    const response = await request(gateway.url)
      .get('/api/claims/public/claims/abc/status')
      .set('X-Request-Id', 'client-req-0001')
      .expect(200);
    expect(response.headers['x-request-id']).toBe('client-req-0001');
    expect(response.body.headers['x-request-id']).toBe('client-req-0001');
  });

  it('replaces an invalid X-Request-Id with its own and passes that upstream', async () => {
    const response = await request(gateway.url)
      .get('/api/claims/public/claims/abc/status')
      .set('X-Request-Id', 'bad id <script>')
      .expect(200);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body.headers['x-request-id']).toBe(response.headers['x-request-id']);
  });

  it('sets a request id on its own rejections too', async () => {
    const response = await request(gateway.url).get('/api/claims/claims').expect(401);
    expect(response.headers['x-request-id']).toBeTruthy();
    expect(response.body.request_id).toBe(response.headers['x-request-id']);
  });
});

describe('gateway key configuration', () => {
  it('refuses to start in production without AUTH_JWT_SECRET or AUTH_JWKS_URL', () => {
    expect(() => testGatewayConfig({ NODE_ENV: 'production', AUTH_JWT_SECRET: '' })).toThrow(/must be set in production/);
  });

  it('refuses to start in production with the development secret', () => {
    expect(() => testGatewayConfig({ NODE_ENV: 'production', AUTH_JWT_SECRET: DEV_JWT_SECRET })).toThrow(/development default/);
  });

  it('refuses to start in production with an AUTH_JWT_SECRET shorter than 32 bytes, reporting it with every other error', () => {
    expect(() => testGatewayConfig({ NODE_ENV: 'production', AUTH_JWT_SECRET: 'short', PORT: 'x' })).toThrow(
      '2 configuration errors:\n- PORT must be a whole number, got "x"\n- AUTH_JWT_SECRET must be at least 32 bytes in production, got 5',
    );
  });
});

describe('gateway access control with AUTH_ISSUER and AUTH_AUDIENCE set', () => {
  let claims: FakeUpstream;
  let gateway: RunningServer;

  beforeAll(async () => {
    claims = await startFakeUpstream();
    gateway = await startGateway(
      testGatewayConfig({
        CLAIMS_URL: claims.url,
        EVIDENCE_URL: claims.url,
        AUTH_ISSUER: 'https://id.claims-platform.dev',
        AUTH_AUDIENCE: 'claims-platform',
      }),
    );
  });
  afterAll(async () => {
    await gateway?.close();
    await claims?.close();
  });

  const tokenFrom = (issuer?: string, audience?: string) =>
    signDevToken({ sub: 'alice', scope: 'claims:read', secret: TEST_JWT_SECRET, issuer, audience }).then((jwt) => `Bearer ${jwt}`);

  it.each([
    ['another issuer', 'https://evil.example', 'claims-platform'],
    ['no issuer', undefined, 'claims-platform'],
    ['another audience', 'https://id.claims-platform.dev', 'someone-else'],
  ])('refuses a token from %s with 401', async (_case, issuer, audience) => {
    await request(gateway.url)
      .get('/api/claims/claims')
      .set('Authorization', await tokenFrom(issuer, audience))
      .expect(401);
    expect(claims.received).toEqual([]);
  });

  it('accepts a token with the configured issuer and audience', async () => {
    await request(gateway.url)
      .get('/api/claims/claims')
      .set('Authorization', await tokenFrom('https://id.claims-platform.dev', 'claims-platform'))
      .expect(200);
  });
});
