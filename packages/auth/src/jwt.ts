import { SignJWT, createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { ConfigError } from '@platform/config';
import { problems } from '@platform/http';

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
}

export type VerifyToken = (token: string) => Promise<Principal>;

/**
 * Development uses HS256 with a shared secret (a documented default outside production); production
 * uses an OIDC provider's JWKS. Issuer and audience are checked whenever they are configured.
 */
export function createJwtVerifier(settings: AuthSettings, nodeEnv = process.env.NODE_ENV): VerifyToken {
  const options = {
    ...(settings.AUTH_ISSUER ? { issuer: settings.AUTH_ISSUER } : {}),
    ...(settings.AUTH_AUDIENCE ? { audience: settings.AUTH_AUDIENCE } : {}),
    requiredClaims: ['sub', 'exp'],
  };
  let verify: (token: string) => Promise<{ payload: JWTPayload }>;
  if (settings.AUTH_JWKS_URL) {
    const jwks: JWTVerifyGetKey = createRemoteJWKSet(new URL(settings.AUTH_JWKS_URL));
    verify = (token) => jwtVerify(token, jwks, { ...options, algorithms: ['RS256', 'ES256'] });
  } else {
    const secret = settings.AUTH_JWT_SECRET ?? (nodeEnv === 'production' ? undefined : DEV_JWT_SECRET);
    if (!secret) throw new ConfigError('AUTH_JWT_SECRET or AUTH_JWKS_URL must be set in production');
    if (nodeEnv === 'production' && secret === DEV_JWT_SECRET) throw new ConfigError('AUTH_JWT_SECRET must not be the development default in production');
    const key = new TextEncoder().encode(secret);
    verify = (token) => jwtVerify(token, key, { ...options, algorithms: ['HS256'] });
  }
  return async (token) => {
    try {
      const { payload } = await verify(token);
      if (typeof payload.sub !== 'string' || payload.sub === '') throw problems.unauthorized('The token has no subject');
      const scope = typeof payload.scope === 'string' ? payload.scope : '';
      return { sub: payload.sub, scopes: new Set(scope.split(' ').filter(Boolean)) };
    } catch (error) {
      if (settings.AUTH_JWKS_URL && jwksUnavailable(error)) throw problems.serviceUnavailable("The identity provider's signing keys cannot be fetched; retry shortly");
      if (error instanceof joseErrors.JWTExpired) throw problems.unauthorized('The token has expired');
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) throw problems.unauthorized('The token does not verify');
      throw error;
    }
  };
}

/** The JWKS endpoint timed out, answered other than 200, or sent something that is not a key set. */
function jwksUnavailable(error: unknown): boolean {
  if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid) return true;
  return error instanceof joseErrors.JOSEError && error.code === 'ERR_JOSE_GENERIC';
}

/** A development token, for `pnpm token` and tests. */
export async function signDevToken(options: { sub: string; scope: string; secret?: string; expiresIn?: string | number; issuer?: string; audience?: string }): Promise<string> {
  let jwt = new SignJWT({ scope: options.scope })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(options.sub)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h');
  if (options.issuer) jwt = jwt.setIssuer(options.issuer);
  if (options.audience) jwt = jwt.setAudience(options.audience);
  return jwt.sign(new TextEncoder().encode(options.secret ?? DEV_JWT_SECRET));
}
