import { decodeJwtPayload } from '../api/jwt';

/**
 * OpenID Connect sign-in for the workbench, a public client in the browser: authorization code with PKCE
 * (S256), `state` against forged callbacks and `nonce` against replayed ID tokens. The verifier, state and
 * nonce wait in sessionStorage between leaving for the provider and coming back to /workbench/callback.
 */
export interface SignInConfig {
  issuer: string | null;
  client_id: string;
  scopes: string;
  development_sign_in: boolean;
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
}

const PENDING_KEY = 'workbench-oidc-pending';

export async function fetchSignInConfig(): Promise<SignInConfig> {
  const response = await fetch('/workbench/config.json');
  if (!response.ok) throw new Error(`The sign-in configuration could not be loaded (${response.status})`);
  return (await response.json()) as SignInConfig;
}

async function discover(issuer: string): Promise<Discovery> {
  const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`The sign-in provider did not answer (${response.status})`);
  return (await response.json()) as Discovery;
}

function randomString(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export async function pkceChallenge(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

export const callbackUrl = () => `${window.location.origin}/workbench/callback`;

/** Leaves for the provider's authorization endpoint; `returnTo` is where the callback sends the person back. */
export async function beginSignIn(config: SignInConfig, returnTo: string): Promise<void> {
  if (!config.issuer) throw new Error('No sign-in provider is configured');
  const { authorization_endpoint } = await discover(config.issuer);
  const pending = { verifier: randomString(), state: randomString(16), nonce: randomString(16), returnTo };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const url = new URL(authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.client_id,
    redirect_uri: callbackUrl(),
    scope: config.scopes,
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await pkceChallenge(pending.verifier),
    code_challenge_method: 'S256',
  }).toString();
  window.location.assign(url.toString());
}

/** Back at /workbench/callback: checks state, trades the code and verifier for tokens, checks the ID token's nonce. */
export async function completeSignIn(config: SignInConfig, search: string): Promise<{ accessToken: string; returnTo: string }> {
  const pendingText = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  const params = new URLSearchParams(search);
  if (!pendingText || !config.issuer) throw new Error('No sign-in was started in this tab');
  const pending = JSON.parse(pendingText) as { verifier: string; state: string; nonce: string; returnTo: string };
  if (params.get('error')) throw new Error(`The sign-in provider refused: ${params.get('error_description') ?? params.get('error')}`);
  if (params.get('state') !== pending.state) throw new Error('The sign-in answer does not belong to this tab (state differs)');
  const code = params.get('code');
  if (!code) throw new Error('The sign-in answer has no code');
  const { token_endpoint } = await discover(config.issuer);
  const response = await fetch(token_endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: callbackUrl(),
      client_id: config.client_id,
      code_verifier: pending.verifier,
    }),
  });
  const tokens = (await response.json()) as { access_token?: string; id_token?: string; error_description?: string };
  if (!response.ok || !tokens.access_token || !tokens.id_token)
    throw new Error(`The sign-in could not be completed: ${tokens.error_description ?? response.status}`);
  const idPayload = decodeJwtPayload(tokens.id_token);
  if (idPayload.nonce !== pending.nonce) throw new Error('The ID token was not issued for this sign-in (nonce differs)');
  return { accessToken: tokens.access_token, returnTo: pending.returnTo };
}

export async function developmentSignIn(sub: string, scope: string): Promise<string> {
  const response = await fetch('/workbench/dev-token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ sub, scope }),
  });
  const body = (await response.json()) as { access_token?: string; detail?: string };
  if (!response.ok || !body.access_token) throw new Error(body.detail ?? `Development sign-in failed (${response.status})`);
  return body.access_token;
}
