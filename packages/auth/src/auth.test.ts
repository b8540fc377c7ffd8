import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWK, type KeyLike } from 'jose';
import request from 'supertest';
import { ConfigError } from '@platform/config';
import { HttpProblem, createLogger, createMetrics, createServiceApp, finishApp } from '@platform/http';
import { accessTokenMatches, generateAccessToken, hashAccessToken } from './claimant-token';
import { CLOCK_SKEW_S, DEV_JWT_SECRET, VERIFIED_TOKEN_MAX_AGE_MS, createJwtVerifier, signDevToken, type VerifyToken } from './jwt';
import { authenticate, principalOf, requireScope } from './middleware';

const SECRET = 'auth-test-secret-0123456789-0123456789';
const now = () => Math.floor(Date.now() / 1000);

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

async function rejection(promise: Promise<unknown>): Promise<HttpProblem> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpProblem) return error;
    throw error;
  }
  throw new Error('expected the token to be refused');
}

let strangerKey: Promise<KeyLike> | undefined;
/** An RS256 key no JWKS here publishes; generated once, as RSA key generation is slow. */
const stranger = () => (strangerKey ??= generateKeyPair('RS256').then((pair) => pair.privateKey));

function appWith(verify: VerifyToken) {
  const app = createServiceApp({ logger: createLogger('auth-test'), metrics: createMetrics('auth-test'), readiness: {} });
  app.get('/claims', authenticate(verify), requireScope('claims:read'), (req, res) => {
    const principal = principalOf(req);
    res.json({ sub: principal.sub, scopes: [...principal.scopes].sort() });
  });
  return finishApp(app, createLogger('auth-test'));
}

describe('HS256 verification', () => {
  const verify = createJwtVerifier({ AUTH_JWT_SECRET: SECRET }, 'test');

  it('accepts a valid token and reads sub and space-separated scopes', async () => {
    const token = await signDevToken({ sub: 'alice', scope: 'claims:read claims:write', secret: SECRET });
    const principal = await verify(token);
    expect(principal.sub).toBe('alice');
    expect([...principal.scopes].sort()).toEqual(['claims:read', 'claims:write']);
  });

  it('refuses a token signed with another secret', async () => {
    const token = await signDevToken({ sub: 'alice', scope: 'claims:read', secret: 'another-secret-0123456789-0123456789' });
    const problem = await rejection(verify(token));
    expect(problem.status).toBe(401);
    expect(problem.headers['WWW-Authenticate']).toBe('Bearer');
  });

  it('refuses a token whose signature was tampered with', async () => {
    const token = await signDevToken({ sub: 'alice', scope: 'claims:read', secret: SECRET });
    const [header, , signature] = token.split('.');
    const forged = `${header}.${base64url({ sub: 'alice', scope: 'audit:read', exp: now() + 600 })}.${signature}`;
    expect((await rejection(verify(forged))).status).toBe(401);
  });

  it('refuses an expired token', async () => {
    const token = await signDevToken({ sub: 'alice', scope: 'claims:read', secret: SECRET, expiresIn: now() - 60 });
    const problem = await rejection(verify(token));
    expect(problem.status).toBe(401);
    expect(problem.detail).toMatch(/expired/);
  });

  it('refuses an unsigned token (alg: none)', async () => {
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: 'alice', scope: 'claims:read', exp: now() + 600 })}.`;
    expect((await rejection(verify(unsigned))).status).toBe(401);
  });

  it('refuses a token without sub', async () => {
    const token = await new SignJWT({ scope: 'claims:read' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect((await rejection(verify(token))).status).toBe(401);
  });

  it('refuses a token without exp', async () => {
    const token = await new SignJWT({ scope: 'claims:read' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('alice')
      .sign(new TextEncoder().encode(SECRET));
    expect((await rejection(verify(token))).status).toBe(401);
  });

  it.each(['', 'not-a-jwt', 'a.b.c', '...'])('refuses garbage (%j) with 401, never a 500', async (garbage) => {
    expect((await rejection(verify(garbage))).status).toBe(401);
  });

  const signed = (claims: { iat?: number; exp?: number; nbf?: number }) => {
    let jwt = new SignJWT({ scope: 'claims:read' }).setProtectedHeader({ alg: 'HS256' }).setSubject('alice');
    if (claims.iat !== undefined) jwt = jwt.setIssuedAt(claims.iat);
    if (claims.exp !== undefined) jwt = jwt.setExpirationTime(claims.exp);
    if (claims.nbf !== undefined) jwt = jwt.setNotBefore(claims.nbf);
    return jwt.sign(new TextEncoder().encode(SECRET));
  };

  it.each([
    ['issued a year ahead', { iat: now() + 365 * 86400, exp: now() + 365 * 86400 + 600 }],
    ['expiring in 1e30 seconds', { iat: now(), exp: 1e30 }],
    ['living 25 hours (over the 24 h default)', { iat: now(), exp: now() + 25 * 3600 }],
    ['without iat', { exp: now() + 600 }],
    ['not valid before two minutes from now', { iat: now(), nbf: now() + 120, exp: now() + 600 }],
  ])('refuses a token %s with 401', async (_what, claims) => {
    expect((await rejection(verify(await signed(claims)))).status).toBe(401);
  });

  it('allows a minute of clock skew on iat, nbf and exp', async () => {
    expect((await verify(await signed({ iat: now() + 50, nbf: now() + 50, exp: now() + 600 }))).sub).toBe('alice');
    expect((await verify(await signed({ iat: now() - 600, exp: now() - 50 }))).sub).toBe('alice');
  });

  it('takes the longest lifetime from AUTH_MAX_TOKEN_LIFETIME_S', async () => {
    const strict = createJwtVerifier({ AUTH_JWT_SECRET: SECRET, AUTH_MAX_TOKEN_LIFETIME_S: 3600 }, 'test');
    expect((await strict(await signed({ iat: now(), exp: now() + 3600 }))).sub).toBe('alice');
    expect((await rejection(strict(await signed({ iat: now(), exp: now() + 3601 })))).status).toBe(401);
  });

  it('accepts what `pnpm token` issues by default (8 h)', async () => {
    expect((await verify(await signDevToken({ sub: 'alice', scope: 'claims:read', secret: SECRET, expiresIn: '8h' }))).sub).toBe('alice');
  });

  it.each([
    ['padding after the signature', (parts: string[]) => [parts[0], parts[1], `${parts[2]}==`]],
    ['padding after the payload', (parts: string[]) => [parts[0], `${parts[1]}=`, parts[2]]],
    ['a non-alphabet character in the header', (parts: string[]) => [`${parts[0]}!`, parts[1], parts[2]]],
    [
      'base64 instead of base64url in the signature',
      (parts: string[]) => [parts[0], parts[1], Buffer.from(parts[2], 'base64url').toString('base64')],
    ],
    ['whitespace inside the payload', (parts: string[]) => [parts[0], `${parts[1].slice(0, 4)} ${parts[1].slice(4)}`, parts[2]]],
  ])('refuses a token with %s, though its bytes verify', async (_what, alter) => {
    let token = await signDevToken({ sub: 'alice', scope: 'claims:read', secret: SECRET });
    // A signature with '+' or '/' makes the base64 case meaningful; sign again until one appears.
    while (!/[+/]/.test(Buffer.from(token.split('.')[2], 'base64url').toString('base64'))) {
      token = await signDevToken({ sub: `alice${Math.random()}`, scope: 'claims:read', secret: SECRET });
    }
    const altered = alter(token.split('.')).join('.');
    expect(altered).not.toBe(token);
    expect((await rejection(verify(altered))).status).toBe(401);
  });

  it('falls back to the documented development secret outside production', async () => {
    const devVerify = createJwtVerifier({}, 'development');
    const token = await signDevToken({ sub: 'dev', scope: 'claims:read' });
    expect((await devVerify(token)).sub).toBe('dev');
  });
});

describe('verified tokens kept (cacheSize)', () => {
  const signedFor = (sub: string, iat: number, exp: number) =>
    new SignJWT({ scope: 'claims:read' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(sub)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(SECRET));
  const at = (epochSeconds: number) => jest.setSystemTime(epochSeconds * 1000);

  beforeEach(() => {
    // Only the clock is fake: jose reads it through Date; promises and crypto run as they do.
    jest.useFakeTimers({
      doNotFake: [
        'nextTick',
        'setImmediate',
        'queueMicrotask',
        'setTimeout',
        'setInterval',
        'clearTimeout',
        'clearInterval',
        'clearImmediate',
        'hrtime',
        'performance',
      ],
    });
  });
  afterEach(() => jest.useRealTimers());

  it('answers a token seen again from what the first verification found', async () => {
    const verify = createJwtVerifier({ AUTH_JWT_SECRET: SECRET }, 'test', { cacheSize: 10 });
    const token = await signedFor('alice', now(), now() + 600);
    const first = await verify(token);
    expect(await verify(token)).toBe(first);
  });

  it('never answers from the cache at or past exp: past the clock skew the token is refused as expired', async () => {
    const verify = createJwtVerifier({ AUTH_JWT_SECRET: SECRET }, 'test', { cacheSize: 10 });
    const issued = now();
    const token = await signedFor('alice', issued, issued + 600);
    const first = await verify(token);
    at(issued + 600);
    // Verified again (within the minute of skew every verification allows), not served from the cache.
    expect(await verify(token)).not.toBe(first);
    at(issued + 600 + CLOCK_SKEW_S + 1);
    const problem = await rejection(verify(token));
    expect(problem.status).toBe(401);
    expect(problem.detail).toMatch(/expired/);
  });

  it('verifies a long-lived token again after VERIFIED_TOKEN_MAX_AGE_MS', async () => {
    const verify = createJwtVerifier({ AUTH_JWT_SECRET: SECRET }, 'test', { cacheSize: 10 });
    const issued = now();
    const token = await signedFor('alice', issued, issued + 8 * 3600);
    const first = await verify(token);
    at(issued + VERIFIED_TOKEN_MAX_AGE_MS / 1000 + 1);
    expect(await verify(token)).not.toBe(first);
  });

  it('keeps at most cacheSize tokens, dropping the oldest', async () => {
    const verify = createJwtVerifier({ AUTH_JWT_SECRET: SECRET }, 'test', { cacheSize: 2 });
    const tokens = await Promise.all(['a', 'b', 'c'].map((sub) => signedFor(sub, now(), now() + 600)));
    const principals = [];
    for (const token of tokens) principals.push(await verify(token));
    expect(await verify(tokens[2])).toBe(principals[2]);
    expect(await verify(tokens[0])).not.toBe(principals[0]);
  });

  it('tells a kept token at once (known), and none it has not verified, nor one at or past exp', async () => {
    const verify = createJwtVerifier({ AUTH_JWT_SECRET: SECRET }, 'test', { cacheSize: 10 });
    const issued = now();
    const token = await signedFor('alice', issued, issued + 600);
    expect(verify.known?.(token)).toBeUndefined();
    const first = await verify(token);
    expect(verify.known?.(token)).toBe(first);
    at(issued + 600);
    expect(verify.known?.(token)).toBeUndefined();
  });

  it('lets a request with a kept token on without waiting for a promise', async () => {
    const verify = createJwtVerifier({ AUTH_JWT_SECRET: SECRET }, 'test', { cacheSize: 10 });
    const token = await signedFor('alice', now(), now() + 600);
    const middleware = authenticate(verify);
    const req = { get: (name: string) => (name === 'authorization' ? `Bearer ${token}` : undefined) } as unknown as Parameters<
      typeof middleware
    >[0];
    const res = {} as Parameters<typeof middleware>[1];
    const nextCalls: unknown[][] = [];
    await middleware(req, res, (...args: unknown[]) => void nextCalls.push(args));
    expect(nextCalls).toEqual([[]]);
    expect(req.principal?.sub).toBe('alice');
    nextCalls.length = 0;
    const returned = middleware(req, res, (...args: unknown[]) => void nextCalls.push(args));
    expect(returned).toBeUndefined();
    expect(nextCalls).toEqual([[]]);
  });

  it('keeps no refusal: a bad token is refused every time', async () => {
    const verify = createJwtVerifier({ AUTH_JWT_SECRET: SECRET }, 'test', { cacheSize: 10 });
    const token = await signDevToken({ sub: 'alice', scope: 'claims:read', secret: 'another-secret-0123456789-0123456789' });
    expect((await rejection(verify(token))).status).toBe(401);
    expect((await rejection(verify(token))).status).toBe(401);
  });
});

describe('issuer and audience', () => {
  const verify = createJwtVerifier(
    { AUTH_JWT_SECRET: SECRET, AUTH_ISSUER: 'https://idp.example', AUTH_AUDIENCE: 'claims-platform' },
    'test',
  );

  it('accepts the configured issuer and audience', async () => {
    const token = await signDevToken({
      sub: 'alice',
      scope: '',
      secret: SECRET,
      issuer: 'https://idp.example',
      audience: 'claims-platform',
    });
    expect((await verify(token)).sub).toBe('alice');
  });

  it.each([
    ['a wrong issuer', { issuer: 'https://evil.example', audience: 'claims-platform' }],
    ['a wrong audience', { issuer: 'https://idp.example', audience: 'other-api' }],
    ['no issuer', { audience: 'claims-platform' }],
    ['no audience', { issuer: 'https://idp.example' }],
  ])('refuses %s with 401', async (_what, claims) => {
    const token = await signDevToken({ sub: 'alice', scope: '', secret: SECRET, ...claims });
    expect((await rejection(verify(token))).status).toBe(401);
  });
});

describe('production key configuration', () => {
  it('refuses to start without a secret or a JWKS URL', () => {
    expect(() => createJwtVerifier({}, 'production')).toThrow(ConfigError);
  });

  it('refuses the development default secret', () => {
    expect(() => createJwtVerifier({ AUTH_JWT_SECRET: DEV_JWT_SECRET }, 'production')).toThrow(ConfigError);
  });

  it('accepts an explicit secret', async () => {
    const verify = createJwtVerifier({ AUTH_JWT_SECRET: SECRET }, 'production');
    expect((await verify(await signDevToken({ sub: 'svc', scope: 'claims:read', secret: SECRET }))).sub).toBe('svc');
  });

  it('does not accept tokens signed with the development default when a secret is configured', async () => {
    const verify = createJwtVerifier({ AUTH_JWT_SECRET: SECRET }, 'production');
    expect((await rejection(verify(await signDevToken({ sub: 'svc', scope: 'claims:read' })))).status).toBe(401);
  });
});

describe('JWKS verification', () => {
  let server: Server;
  let jwksUrl: string;
  let privateKey: KeyLike;
  let otherKey: KeyLike;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    otherKey = await stranger();
    const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    server = createServer((_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const rs256 = (key: KeyLike, kid = 'k1') =>
    new SignJWT({ scope: 'audit:read' })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setSubject('auditor')
      .setIssuedAt()
      .setIssuer('https://idp.example')
      .setAudience('claims-platform')
      .setExpirationTime('5m')
      .sign(key);

  it('verifies an RS256 token with a key from the JWKS', async () => {
    const verify = createJwtVerifier(
      { AUTH_JWKS_URL: jwksUrl, AUTH_ISSUER: 'https://idp.example', AUTH_AUDIENCE: 'claims-platform' },
      'production',
    );
    const principal = await verify(await rs256(privateKey));
    expect(principal.sub).toBe('auditor');
    expect([...principal.scopes]).toEqual(['audit:read']);
  });

  it('refuses an HS256 token, even one signed with the JWT secret', async () => {
    const verify = createJwtVerifier({ AUTH_JWKS_URL: jwksUrl, AUTH_JWT_SECRET: SECRET }, 'production');
    const token = await signDevToken({ sub: 'alice', scope: 'audit:read', secret: SECRET });
    expect((await rejection(verify(token))).status).toBe(401);
  });

  it('refuses an RS256 token signed by a key not in the JWKS', async () => {
    const verify = createJwtVerifier({ AUTH_JWKS_URL: jwksUrl }, 'production');
    expect((await rejection(verify(await rs256(otherKey)))).status).toBe(401);
    expect((await rejection(verify(await rs256(otherKey, 'unknown-kid')))).status).toBe(401);
  });
});

describe('JWKS endpoint unreachable', () => {
  it('answers 503 with Retry-After, not 401 or 500', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const app = appWith(createJwtVerifier({ AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks.json` }, 'production'));
    const privateKey = await stranger();
    const token = await new SignJWT({ scope: 'claims:read' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject('a')
      .setExpirationTime('5m')
      .sign(privateKey);
    const response = await request(app).get('/claims').set('Authorization', `Bearer ${token}`).expect(503);
    expect(response.headers['retry-after']).toBeDefined();
  });
});

describe('JWKS endpoint failing', () => {
  it.each([
    [
      'answers 500',
      (res: import('node:http').ServerResponse) => {
        res.statusCode = 500;
        res.end('oops');
      },
    ],
    ['sends something that is not JSON', (res: import('node:http').ServerResponse) => res.end('<html>')],
    ['sends JSON that is not a key set', (res: import('node:http').ServerResponse) => res.end('{"nokeys":true}')],
  ])('answers 503, not 401, when the endpoint %s', async (_what, respond) => {
    const failing = createServer((_req, res) => respond(res));
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    try {
      const verify = createJwtVerifier({ AUTH_JWKS_URL: `http://127.0.0.1:${(failing.address() as AddressInfo).port}/jwks` }, 'production');
      const privateKey = await stranger();
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setSubject('a')
        .setExpirationTime('5m')
        .sign(privateKey);
      const problem = await rejection(verify(token));
      expect(problem.status).toBe(503);
      expect(problem.headers['Retry-After']).toBeDefined();
    } finally {
      await new Promise<void>((resolve) => failing.close(() => resolve()));
    }
  });
});

describe('authenticate and requireScope', () => {
  const app = appWith(createJwtVerifier({ AUTH_JWT_SECRET: SECRET }, 'test'));
  const token = (scope: string) => signDevToken({ sub: 'bob', scope, secret: SECRET });

  it('lets a caller with the scope through', async () => {
    const response = await request(app)
      .get('/claims')
      .set('Authorization', `Bearer ${await token('claims:read claims:write')}`)
      .expect(200);
    expect(response.body).toEqual({ sub: 'bob', scopes: ['claims:read', 'claims:write'] });
  });

  it('answers 403 problem+json to a verified caller without the scope', async () => {
    const response = await request(app)
      .get('/claims')
      .set('Authorization', `Bearer ${await token('claims:write')}`)
      .expect(403);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status: 403, type: 'https://errors.claims-platform.dev/forbidden' });
  });

  it.each([
    ['no Authorization header', undefined],
    ['a Basic header', 'Basic YWxpY2U6cHc='],
    ['an empty Bearer', 'Bearer '],
    ['a token that does not verify', 'Bearer abc.def.ghi'],
  ])('answers 401 problem+json with WWW-Authenticate to %s', async (_what, header) => {
    const call = request(app).get('/claims');
    if (header !== undefined) call.set('Authorization', header);
    const response = await call.expect(401);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(response.body).toMatchObject({ status: 401, type: 'https://errors.claims-platform.dev/unauthorized' });
  });

  it.each([
    ['a NUL', 'bob\u0000'],
    ['a zero-width space', 'bob\u200b'],
    ['a Cyrillic look-alike beside Latin', 'b\u043eb'],
  ])('answers 401 problem+json to a token whose subject holds %s, before any route sees it', async (_what, sub) => {
    const response = await request(app)
      .get('/claims')
      .set('Authorization', `Bearer ${await signDevToken({ sub, scope: 'claims:read', secret: SECRET })}`)
      .expect(401);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status: 401, type: 'https://errors.claims-platform.dev/unauthorized' });
  });

  it('hands routes the normalised subject: trimmed, NFKC', async () => {
    const response = await request(app)
      .get('/claims')
      .set('Authorization', `Bearer ${await signDevToken({ sub: ' ｂｏｂ\t', scope: 'claims:read', secret: SECRET })}`)
      .expect(200);
    expect(response.body.sub).toBe('bob');
  });

  it('treats a scope as a whole word, not a prefix', async () => {
    await request(app)
      .get('/claims')
      .set('Authorization', `Bearer ${await token('claims:readonly claims')}`)
      .expect(403);
  });
});

describe('claimant access tokens', () => {
  it('carry at least 128 random bits and are URL-safe', () => {
    const tokens = new Set(Array.from({ length: 200 }, generateAccessToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(token, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    }
  });

  it('are stored as a hash that does not contain the token', () => {
    const token = generateAccessToken();
    const stored = hashAccessToken(token);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toContain(token);
    expect(hashAccessToken(token)).toBe(stored);
  });

  it('match only the token they were made from', () => {
    const token = generateAccessToken();
    const stored = hashAccessToken(token);
    expect(accessTokenMatches(token, stored)).toBe(true);
    expect(accessTokenMatches(generateAccessToken(), stored)).toBe(false);
    expect(accessTokenMatches(`${token}x`, stored)).toBe(false);
    expect(accessTokenMatches(`${token}=`, stored)).toBe(false);
    expect(accessTokenMatches(`${token}==`, stored)).toBe(false);
    expect(accessTokenMatches(` ${token}`, stored)).toBe(false);
    expect(accessTokenMatches('', stored)).toBe(false);
    expect(accessTokenMatches(token, 'not-hex')).toBe(false);
    expect(accessTokenMatches(token, '')).toBe(false);
  });
});
