import { authConfigRules, authVariables } from '@platform/auth';
import { brandConfigRules, brandVariables, readConfig, variable } from '@platform/config';
import { clientTimeoutVariables, clientTimeouts } from '@platform/runtime';

/**
 * The scopes a person works with in the pages, each checked by some operation: the workbench's `claims:*`,
 * the examiner desk's `evidence:*` and `audit:read` (verifying the log), the privacy officer's `privacy:manage`.
 * `audit:witness` belongs to witnesses. The provider grants each person only their role's share of these.
 */
export const WORKBENCH_SCOPES = [
  'claims:read',
  'claims:write',
  'claims:decide',
  'evidence:write',
  'evidence:approve',
  'audit:read',
  'privacy:manage',
];

export const gatewayVariables = {
  PORT: variable.int('Port of the gateway', 8080, 0, 65535),
  HOST: variable.string('Interface the gateway binds to', '0.0.0.0'),
  CLAIMS_URL: variable.url('Base URL of the claims service', ['http', 'https'], 'http://127.0.0.1:3001'),
  EVIDENCE_URL: variable.url('Base URL of the evidence service', ['http', 'https'], 'http://127.0.0.1:3002'),
  CORS_ORIGINS: variable.list('Comma-separated origins allowed by CORS; empty allows none'),
  PUBLIC_RATE_LIMIT: variable.int(
    'Public write requests per minute per client address, counted in memory by each gateway replica (behind a round-robin balancer a client gets replicas × this; see deploy/README.md); 0 turns the limit off',
    60,
    0,
  ),
  TRUST_PROXY: variable.string(
    'Which proxies in front may name the client in X-Forwarded-For (Express trust proxy: true/false, hop count, addresses/subnets); `false` when clients connect directly, else each forged value would be a new rate-limit bucket',
    'false',
  ),
  MAX_CONNECTIONS_PER_CLIENT: variable.int(
    'Open connections one client address may hold (429 and closed past it; 0: no limit). Behind a load balancer every connection comes from its address: raise it or set 0 there',
    256,
    0,
  ),
  ...clientTimeoutVariables,
  UPSTREAM_TIMEOUT_MS: variable.int(
    'How long the gateway waits for a silent service before answering 504, or for more of a stalled client body before answering 408',
    30000,
    100,
  ),
  METRICS_PORT: variable.int(
    'Port of a separate listener for /metrics on METRICS_HOST (0: none). When set, the public port does not serve /metrics; when 0, only outside production does it',
    0,
    0,
    65535,
  ),
  METRICS_HOST: variable.string('Interface the metrics listener binds to (keep it internal)', '127.0.0.1'),
  ...authVariables,
  ...brandVariables,
  WORKBENCH_OIDC_CLIENT_ID: variable.string(
    'OpenID Connect client id of the workbench page (a public client: authorization code with PKCE, redirect URI `<gateway>/workbench/callback`)',
    'workbench',
  ),
  WORKBENCH_OIDC_SCOPES: variable.string(
    'Scopes the workbench page asks the OpenID provider for (its access token must carry the `claims:*`/`evidence:*` scopes the services check)',
    `openid ${WORKBENCH_SCOPES.join(' ')}`,
  ),
  WORKBENCH_DEV_SIGN_IN: variable.bool(
    'Development sign-in at POST /workbench/dev-token (pick any user and scopes, signed with the documented development secret). `pnpm start` turns it on when no secret or JWKS is configured; refused in production and beside an operator-configured AUTH_JWT_SECRET or AUTH_JWKS_URL',
    false,
  ),
  NODE_ENV: variable.string('`production` refuses the development secret', 'development'),
  SHUTDOWN_GRACE_MS: variable.int(
    'After SIGTERM, how long /readyz answers 503 while requests are still served, before the server closes',
    3000,
    0,
    60000,
  ),
};

export type GatewayConfig = ReturnType<typeof readGatewayConfig>;

export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env) {
  return readConfig(gatewayVariables, env, [
    (config) => void clientTimeouts(config),
    ...authConfigRules,
    ...brandConfigRules,
    (config) => {
      if (!config.WORKBENCH_DEV_SIGN_IN) return;
      const refusedBecause = [
        config.NODE_ENV === 'production' && 'NODE_ENV is production',
        config.AUTH_JWT_SECRET && 'AUTH_JWT_SECRET is configured',
        config.AUTH_JWKS_URL && 'AUTH_JWKS_URL is configured',
      ].filter(Boolean);
      return (
        refusedBecause.length > 0 &&
        `WORKBENCH_DEV_SIGN_IN=true mints tokens for anyone, so it runs only on the documented development secret; refused because ${refusedBecause.join(' and ')}`
      );
    },
  ]);
}
