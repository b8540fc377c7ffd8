import { SignJWT, createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { ConfigError } from '@platform/config';
import { problems } from '@platform/http';
import { normaliseSubject } from './subject';

export const DEV_JWT_SECRET = 'dev-only-insecure-secret-change-me-0123456789';

export interface Principal {
  sub: string;
  scopes: ReadonlySet<string>;
}

export interface AuthSettings {
  AUTH_JWT_SECRET?: string;
  AUTH_JWKS_URL?: string;
  AUTH_ISSUER?: string;
  AUTH_AUDIENCE?: string;
  AUTH_MAX_TOKEN_LIFETIME_S?: number;
}

/** Clocks of the issuer and this process may disagree by this much when `iat`, `nbf` and `exp` are checked. */
export const CLOCK_SKEW_S = 60;
export const DEFAULT_MAX_TOKEN_LIFETIME_S = 86400;

/** Strict base64url (RFC 7515 §2): alphabet only, no padding, and the one encoding of its bytes (no stray trailing bits). */
function isCanonicalBase64url(segment: string): boolean {
  return /^[A-Za-z0-9_-]*$/.test(segment) && Buffer.from(segment, 'base64url').toString('base64url') === segment;
}

/** A compact JWS of three strictly encoded segments; jose alone also takes `=` padding and characters outside the alphabet. */
function isStrictCompactJws(token: string): boolean {
  const segments = token.split('.');
  return segments.length === 3 && segments.every(isCanonicalBase64url);
}

/** `iat` not ahead of this clock, and `exp` no further after `iat` than the longest lifetime allowed. */
function checkLifetime(payload: JWTPayload, maxLifetime: number): void {
  const now = Math.floor(Date.now() / 1000);
  const { iat, exp } = payload as { iat: number; exp: number };
  if (iat > now + CLOCK_SKEW_S) throw problems.unauthorized('The token was issued in the future');
  if (exp - iat > maxLifetime) throw problems.unauthorized(`The token lives longer than the ${maxLifetime} s allowed`);
}

export interface VerifyToken {
  (token: string): Promise<Principal>;
  /**
   * The principal of a token verified before and still kept (see VerifierOptions.cacheSize), at once, without a
   * promise; undefined when the token must be verified (then call the verifier itself).
   */
  known?(token: string): Principal | undefined;
}

export interface VerifierOptions {
  /**
   * Keep up to this many verified tokens, so a token seen again is not verified again: each until its
   * `exp` and never past it (nor past VERIFIED_TOKEN_MAX_AGE_MS), the oldest dropped first. Refusals are
   * never kept. 0 (the default) keeps none.
   */
  cacheSize?: number;
}

/**
 * How long a verified token is kept at most, even when it lives longer: jose keeps a fetched JWKS as long
 * (cacheMaxAge), so a key withdrawn from the JWKS stops being honoured no later than it would without the cache.
 */
export const VERIFIED_TOKEN_MAX_AGE_MS = 10 * 60_000;

/** Verified tokens by their exact text, each with the principal it gave and the moment it stops counting. */
class VerifiedTokens {
  private readonly entries = new Map<string, { principal: Principal; untilMs: number }>();

  constructor(private readonly maxEntries: number) {}

  get(token: string): Principal | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (Date.now() < entry.untilMs) return entry.principal;
    this.entries.delete(token);
    return undefined;
  }

  set(token: string, principal: Principal, expSeconds: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { principal, untilMs: Math.min(expSeconds * 1000, Date.now() + VERIFIED_TOKEN_MAX_AGE_MS) });
  }
}

/**
 * Development uses HS256 with a shared secret (a documented default outside production); production
 * uses an OIDC provider's JWKS. Issuer and audience are checked whenever they are configured; `iat` is
 * required, and a token may live no longer than AUTH_MAX_TOKEN_LIFETIME_S.
 */
export function createJwtVerifier(
  settings: AuthSettings,
  nodeEnv = process.env.NODE_ENV,
  verifierOptions: VerifierOptions = {},
): VerifyToken {
  const options = {
    ...(settings.AUTH_ISSUER ? { issuer: settings.AUTH_ISSUER } : {}),
    ...(settings.AUTH_AUDIENCE ? { audience: settings.AUTH_AUDIENCE } : {}),
    requiredClaims: ['sub', 'exp', 'iat'],
    clockTolerance: CLOCK_SKEW_S,
  };
  const maxLifetime = settings.AUTH_MAX_TOKEN_LIFETIME_S ?? DEFAULT_MAX_TOKEN_LIFETIME_S;
  let verify: (token: string) => Promise<{ payload: JWTPayload }>;
  if (settings.AUTH_JWKS_URL) {
    const jwks: JWTVerifyGetKey = createRemoteJWKSet(new URL(settings.AUTH_JWKS_URL));
    verify = (token) => jwtVerify(token, jwks, { ...options, algorithms: ['RS256', 'ES256'] });
  } else {
    const secret = settings.AUTH_JWT_SECRET ?? (nodeEnv === 'production' ? undefined : DEV_JWT_SECRET);
    if (!secret) throw new ConfigError('AUTH_JWT_SECRET or AUTH_JWKS_URL must be set in production');
    if (nodeEnv === 'production' && secret === DEV_JWT_SECRET)
      throw new ConfigError('AUTH_JWT_SECRET must not be the development default in production');
    const key = new TextEncoder().encode(secret);
    verify = (token) => jwtVerify(token, key, { ...options, algorithms: ['HS256'] });
  }
  const verified = verifierOptions.cacheSize ? new VerifiedTokens(verifierOptions.cacheSize) : undefined;
  const verifyToken: VerifyToken = async (token) => {
    const known = verified?.get(token);
    if (known) return known;
    try {
      if (!isStrictCompactJws(token)) throw problems.unauthorized('The token is not a compact JWS in base64url');
      const { payload } = await verify(token);
      checkLifetime(payload, maxLifetime);
      if (typeof payload.sub !== 'string' || payload.sub === '') throw problems.unauthorized('The token has no subject');
      const sub = normaliseSubject(payload.sub);
      if (sub === undefined)
        throw problems.unauthorized(
          "The token's subject holds a control or invisible character, or mixes Latin with look-alike letters of another script",
        );
      const scope = typeof payload.scope === 'string' ? payload.scope : '';
      const principal: Principal = { sub, scopes: new Set(scope.split(' ').filter(Boolean)) };
      verified?.set(token, principal, payload.exp!);
      return principal;
    } catch (error) {
      if (settings.AUTH_JWKS_URL && jwksUnavailable(error))
        throw problems.serviceUnavailable("The identity provider's signing keys cannot be fetched; retry shortly");
      if (error instanceof joseErrors.JWTExpired) throw problems.unauthorized('The token has expired');
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) throw problems.unauthorized('The token does not verify');
      throw error;
    }
  };
  if (verified) verifyToken.known = (token) => verified.get(token);
  return verifyToken;
}

/** The JWKS endpoint timed out, answered other than 200, or sent something that is not a key set. */
function jwksUnavailable(error: unknown): boolean {
  if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid) return true;
  return error instanceof joseErrors.JOSEError && error.code === 'ERR_JOSE_GENERIC';
}

/** A development token, for `pnpm token` and tests. */
export async function signDevToken(options: {
  sub: string;
  scope: string;
  secret?: string;
  expiresIn?: string | number;
  issuer?: string;
  audience?: string;
}): Promise<string> {
  let jwt = new SignJWT({ scope: options.scope })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(options.sub)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h');
  if (options.issuer) jwt = jwt.setIssuer(options.issuer);
  if (options.audience) jwt = jwt.setAudience(options.audience);
  return jwt.sign(new TextEncoder().encode(options.secret ?? DEV_JWT_SECRET));
}
