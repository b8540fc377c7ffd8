import request from 'supertest';
import { createJwtVerifier } from '@platform/auth';
import { TEST_JWT_SECRET } from '@platform/testing';
import { readGatewayConfig } from './config';
import { createGateway } from './gateway';

function gatewayApp(env: Record<string, string>) {
  return createGateway(readGatewayConfig({ PUBLIC_RATE_LIMIT: '0', ...env })).app;
}

describe('workbench sign-in at the gateway', () => {
  it('tells the page its OpenID provider, client and scopes at /workbench/config.json', async () => {
    const app = gatewayApp({
      AUTH_JWT_SECRET: TEST_JWT_SECRET,
      AUTH_ISSUER: 'https://id.insurer.example',
      WORKBENCH_OIDC_CLIENT_ID: 'wb',
      WORKBENCH_OIDC_SCOPES: 'openid claims:read',
    });
    const response = await request(app).get('/workbench/config.json').expect(200);
    expect(response.body).toEqual({
      issuer: 'https://id.insurer.example',
      client_id: 'wb',
      scopes: 'openid claims:read',
      development_sign_in: false,
    });
  });

  it('mints, where WORKBENCH_DEV_SIGN_IN asks for it, a development token the platform verifies on the development secret, with the asked subject and scopes', async () => {
    const app = gatewayApp({ WORKBENCH_DEV_SIGN_IN: 'true', NODE_ENV: 'development' });
    const response = await request(app)
      .post('/workbench/dev-token')
      .send({ sub: 'adjuster-ana', scope: 'claims:read claims:write' })
      .expect(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const principal = await createJwtVerifier({}, 'development')(response.body.access_token);
    expect(principal.sub).toBe('adjuster-ana');
    expect([...principal.scopes]).toEqual(['claims:read', 'claims:write']);
  });

  it('answers a 400 problem for a bad development sign-in request', async () => {
    const app = gatewayApp({ WORKBENCH_DEV_SIGN_IN: 'true', NODE_ENV: 'development' });
    for (const body of [
      { sub: '', scope: 'claims:read' },
      { sub: 'a b', scope: 'claims:read' },
      { sub: 'ana' },
      { sub: 'ana', scope: 'claims:read', admin: true },
    ]) {
      const response = await request(app).post('/workbench/dev-token').send(body);
      expect(response.status).toBe(400);
      expect(response.type).toBe('application/problem+json');
    }
  });

  it('has no development sign-in unless it is asked for — outside production too, with or without a secret: 404, and the page is told so', async () => {
    for (const env of [
      { NODE_ENV: 'development' } as Record<string, string>,
      { NODE_ENV: 'staging', AUTH_JWT_SECRET: TEST_JWT_SECRET },
      { NODE_ENV: 'production', AUTH_JWT_SECRET: TEST_JWT_SECRET },
      { NODE_ENV: 'test', AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks', AUTH_ISSUER: 'http://127.0.0.1:9' },
    ]) {
      const app = gatewayApp(env);
      const response = await request(app).post('/workbench/dev-token').send({ sub: 'adjuster-ana', scope: 'claims:decide' });
      expect(response.status).toBe(404);
      expect(response.type).toBe('application/problem+json');
      expect((await request(app).get('/workbench/config.json').expect(200)).body.development_sign_in).toBe(false);
    }
  });

  it.each([
    ['in production', { NODE_ENV: 'production', AUTH_JWT_SECRET: TEST_JWT_SECRET }, /NODE_ENV is production/],
    ['beside an operator’s secret', { NODE_ENV: 'staging', AUTH_JWT_SECRET: TEST_JWT_SECRET }, /AUTH_JWT_SECRET is configured/],
    ['beside an OpenID provider’s keys', { AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks' }, /AUTH_JWKS_URL is configured/],
  ])('refuses to start with WORKBENCH_DEV_SIGN_IN=true %s, naming why', (_where, env, reason) => {
    expect(() => readGatewayConfig({ ...env, WORKBENCH_DEV_SIGN_IN: 'true' })).toThrow(reason);
  });
});

describe('the pages’ policy with an OpenID provider', () => {
  it('lets the pages call the provider’s origin (discovery, token endpoint) and nothing else new', async () => {
    const app = gatewayApp({
      NODE_ENV: 'test',
      AUTH_JWKS_URL: 'https://id.insurer.example/jwks',
      AUTH_ISSUER: 'https://id.insurer.example/realms/claims',
    });
    const response = await request(app).get('/workbench');
    expect(response.headers['content-security-policy']).toContain("connect-src 'self' https://id.insurer.example;");
    const without = await request(gatewayApp({ NODE_ENV: 'test', AUTH_JWT_SECRET: TEST_JWT_SECRET })).get('/workbench');
    expect(without.headers['content-security-policy']).toContain("connect-src 'self';");
  });
});
