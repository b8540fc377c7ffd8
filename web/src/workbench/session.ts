import { WORKBENCH_TOKEN_KEY as SESSION_KEY } from '../examiner/session';

/**
 * The workbench's signed-in person: the access token (from the OpenID provider, or a development token)
 * kept in this tab's sessionStorage only, with the subject and scopes read from its payload for the page
 * to decide what to show. The services verify the token on every call; the page never trusts it for more.
 */
export interface WorkbenchSession {
  accessToken: string;
  sub: string;
  scopes: string[];
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

function decodePayload(token: string): Record<string, unknown> {
  const segment = token.split('.')[1] ?? '';
  const json = atob(segment.replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)))) as Record<string, unknown>;
}

export function sessionFromToken(accessToken: string): WorkbenchSession {
  const payload = decodePayload(accessToken);
  return {
    accessToken,
    sub: String(payload.sub ?? ''),
    scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [],
    expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : Date.now(),
  };
}

export function saveSession(accessToken: string): WorkbenchSession {
  sessionStorage.setItem(SESSION_KEY, accessToken);
  return sessionFromToken(accessToken);
}

/** The current session, or null when there is none or its token has expired. */
export function currentSession(now = Date.now()): WorkbenchSession | null {
  const token = sessionStorage.getItem(SESSION_KEY);
  if (!token) return null;
  try {
    const session = sessionFromToken(token);
    return session.expiresAt > now ? session : null;
  } catch {
    return null;
  }
}

export function endSession(): void {
  sessionStorage.removeItem(SESSION_KEY);
}

export const hasScope = (session: WorkbenchSession, scope: string) => session.scopes.includes(scope);

export const authHeader = (session: WorkbenchSession) => ({ Authorization: `Bearer ${session.accessToken}` });
