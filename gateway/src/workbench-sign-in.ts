import { type Express, type NextFunction, type Request, type Response } from 'express';
import { signDevToken } from '@platform/auth';
import { assertValid, jsonBody, problems, sendProblem } from '@platform/http';
import type { GatewayConfig } from './config';

/** What the workbench page needs to sign people in (public: it holds no secret — the page is a public OIDC client). */
export interface WorkbenchSignInConfig {
  /** The OpenID provider (its /.well-known/openid-configuration), or null when none is configured. */
  issuer: string | null;
  client_id: string;
  scopes: string;
  /** Whether POST /workbench/dev-token mints tokens (development only). */
  development_sign_in: boolean;
}

/** Development tokens live as long as a working day, like `pnpm token`'s. */
const DEV_TOKEN_LIFETIME = '8h';

const devTokenRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['sub', 'scope'],
  properties: {
    sub: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._@-]+$' },
    scope: { type: 'string', maxLength: 500, pattern: '^[a-z:_]+( [a-z:_]+)*$' },
  },
} as const;

/**
 * Development sign-in exists only where it was asked for (WORKBENCH_DEV_SIGN_IN, which `pnpm start` sets when
 * nothing else is configured); readGatewayConfig refuses it in production and beside an operator's secret or
 * JWKS, so it never signs tokens with a secret a real deployment trusts.
 */
export function developmentSignInEnabled(config: GatewayConfig): boolean {
  return config.WORKBENCH_DEV_SIGN_IN;
}

export function workbenchSignInConfig(config: GatewayConfig): WorkbenchSignInConfig {
  return {
    issuer: config.AUTH_ISSUER ?? null,
    client_id: config.WORKBENCH_OIDC_CLIENT_ID,
    scopes: config.WORKBENCH_OIDC_SCOPES,
    development_sign_in: developmentSignInEnabled(config),
  };
}

/** The OpenID provider's origin, which the pages' policy must let them call (discovery and token endpoint). */
export function signInProviderOrigins(config: GatewayConfig): string[] {
  if (!config.AUTH_ISSUER || !URL.canParse(config.AUTH_ISSUER)) return [];
  return [new URL(config.AUTH_ISSUER).origin];
}

/**
 * GET /workbench/config.json, and POST /workbench/dev-token ({ sub, scope } → an HS256 token signed with
 * the development secret; 404 where development sign-in is off). Mount before the pages' catch-all.
 */
export function mountWorkbenchSignIn(app: Express, config: GatewayConfig): void {
  const signIn = workbenchSignInConfig(config);
  app.get('/workbench/config.json', (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(signIn);
  });
  app.post(
    '/workbench/dev-token',
    (req: Request, res: Response, next: NextFunction) => {
      if (!signIn.development_sign_in) return sendProblem(req, res, problems.notFound());
      next();
    },
    jsonBody,
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        const { sub, scope } = assertValid<{ sub: string; scope: string }>(devTokenRequestSchema, req.body);
        const accessToken = await signDevToken({
          sub,
          scope,
          secret: config.AUTH_JWT_SECRET,
          expiresIn: DEV_TOKEN_LIFETIME,
          issuer: config.AUTH_ISSUER,
          audience: config.AUTH_AUDIENCE,
        });
        res.setHeader('Cache-Control', 'no-store');
        res.json({ access_token: accessToken, token_type: 'Bearer' });
      } catch (error) {
        next(error);
      }
    },
  );
}
