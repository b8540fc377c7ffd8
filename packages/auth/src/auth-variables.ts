import { variable } from '@platform/config';

/** The variables of internal JWT verification, read by the gateway and both services. */
export const authVariables = {
  AUTH_JWT_SECRET: variable.string('HS256 secret for internal JWTs; a documented development default is used outside production'),
  AUTH_JWKS_URL: variable.url('JWKS of the OIDC provider (RS256/ES256); takes precedence over AUTH_JWT_SECRET', ['https', 'http']),
  AUTH_ISSUER: variable.string('Expected `iss` of internal JWTs, checked when set'),
  AUTH_AUDIENCE: variable.string('Expected `aud` of internal JWTs, checked when set'),
  AUTH_MAX_TOKEN_LIFETIME_S: variable.int(
    'Longest lifetime (`exp` − `iat`, seconds) an internal JWT may have; longer-lived tokens are refused (`pnpm token` issues 8 h)',
    86400,
    60,
  ),
};
