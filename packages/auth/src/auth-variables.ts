import { inProduction, variable, type ConfigRule } from '@platform/config';
import { DEV_JWT_SECRET } from './jwt';

/** HS256 keys shorter than the hash (RFC 7518 §3.2) can be guessed; the documented minimum. */
export const MIN_JWT_SECRET_BYTES = 32;

/** The variables of internal JWT verification, read by the gateway and both services. */
export const authVariables = {
  AUTH_JWT_SECRET: variable.string(
    `HS256 secret for internal JWTs, at least ${MIN_JWT_SECRET_BYTES} bytes in production (32 random bytes: \`openssl rand -base64 48\`); a documented development default is used outside production`,
  ),
  AUTH_JWKS_URL: variable.url('JWKS of the OIDC provider (RS256/ES256); takes precedence over AUTH_JWT_SECRET', ['https', 'http']),
  AUTH_ISSUER: variable.string('Expected `iss` of internal JWTs, checked when set'),
  AUTH_AUDIENCE: variable.string('Expected `aud` of internal JWTs, checked when set'),
  AUTH_MAX_TOKEN_LIFETIME_S: variable.int(
    'Longest lifetime (`exp` − `iat`, seconds) an internal JWT may have; longer-lived tokens are refused (`pnpm token` issues 8 h)',
    86400,
    60,
  ),
};

type AuthSettings = { NODE_ENV?: string; AUTH_JWT_SECRET?: string; AUTH_JWKS_URL?: string };

/** What production requires of the auth variables (checked with every other variable when the configuration is read). */
export const authConfigRules: ConfigRule<AuthSettings>[] = [
  inProduction((c) => !c.AUTH_JWT_SECRET && !c.AUTH_JWKS_URL && 'AUTH_JWT_SECRET or AUTH_JWKS_URL must be set in production'),
  inProduction((c) => c.AUTH_JWT_SECRET === DEV_JWT_SECRET && 'AUTH_JWT_SECRET must not be the development default in production'),
  inProduction((c) => {
    const bytes = c.AUTH_JWT_SECRET === undefined ? MIN_JWT_SECRET_BYTES : Buffer.byteLength(c.AUTH_JWT_SECRET);
    return bytes < MIN_JWT_SECRET_BYTES && `AUTH_JWT_SECRET must be at least ${MIN_JWT_SECRET_BYTES} bytes in production, got ${bytes}`;
  }),
];
