import createClient from 'openapi-fetch';
import { decodeJwtPayload } from '../api/jwt';
import type { paths } from '../api/schema';

/**
 * The workbench keeps the signed-in person's access token in sessionStorage under this key (for this tab
 * only); the sign-in puts it there and every workbench page, the examiner desk included, reads it.
 */
const SESSION_KEY = 'workbench-token';

/**
 * The workbench's signed-in person: the access token (from the OpenID provider, or a development token)
 * kept in this tab's sessionStorage, with the subject and scopes read from its payload for the page
 * to decide what to show. The services verify the token on every call; the page never trusts it for more.
 *
 * Across tabs: a tab opened without a session (a claim opened in a new tab) asks the other workbench tabs
 * on a BroadcastChannel and one that holds a current session hands its token over, into the new tab's own
 * sessionStorage. The token never goes into the URL or into localStorage (where it would outlive the
 * browser session on disk). Signing out in one tab tells every tab, and each forgets its token.
 */
export interface WorkbenchSession {
  accessToken: string;
  sub: string;
  scopes: string[];
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export function sessionFromToken(accessToken: string): WorkbenchSession {
  const payload = decodeJwtPayload(accessToken);
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

const CHANNEL = 'workbench-session';
type SessionMessage = { type: 'request' } | { type: 'token'; token: string } | { type: 'signed-out' };

/** How long a tab without a session waits for another tab to hand one over before asking to sign in. */
export const HANDOVER_WAIT_MS = 1500;

/**
 * Keeps this tab in step with the others while it is open: answers a new tab's request with this tab's
 * current session, and on a sign-out elsewhere forgets this tab's token and calls `onSignedOut`. Returns
 * the function that stops listening. `sessionHere` is this tab's session (tests stand in for a tab with it).
 */
export function shareSessionWithOtherTabs(
  onSignedOut: () => void,
  sessionHere: () => WorkbenchSession | null = currentSession,
): () => void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<SessionMessage>) => {
    if (event.data.type === 'request') {
      const session = sessionHere();
      if (session) channel.postMessage({ type: 'token', token: session.accessToken } satisfies SessionMessage);
    } else if (event.data.type === 'signed-out') {
      endSession();
      onSignedOut();
    }
  };
  return () => channel.close();
}

/** Asks the other workbench tabs for their session; saves and answers the first current one, or null after `waitMs`. */
export function requestSessionFromOtherTabs(waitMs = HANDOVER_WAIT_MS): Promise<WorkbenchSession | null> {
  return new Promise((resolve) => {
    const channel = new BroadcastChannel(CHANNEL);
    const finish = (session: WorkbenchSession | null) => {
      clearTimeout(timer);
      channel.close();
      resolve(session);
    };
    const timer = setTimeout(() => finish(null), waitMs);
    channel.onmessage = (event: MessageEvent<SessionMessage>) => {
      if (event.data.type !== 'token') return;
      try {
        const handed = sessionFromToken(event.data.token);
        if (handed.expiresAt > Date.now()) finish(saveSession(handed.accessToken));
      } catch {
        // not a token: wait for another tab
      }
    };
    channel.postMessage({ type: 'request' } satisfies SessionMessage);
  });
}

/** Signs out here and in every other workbench tab. */
export function signOutEverywhere(): void {
  endSession();
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ type: 'signed-out' } satisfies SessionMessage);
  channel.close();
}

export const hasScope = (session: WorkbenchSession, scope: string) => session.scopes.includes(scope);

export const authHeader = (session: WorkbenchSession) => ({ Authorization: `Bearer ${session.accessToken}` });

/** The examiner desk's view of the session: the token, who is signed in, the scopes and an API client carrying the token. */
export interface ExaminerSession {
  token: string;
  me: string;
  scopes: readonly string[];
  api: ReturnType<typeof createClient<paths>>;
}

export const canWrite = (session: ExaminerSession) => session.scopes.includes('evidence:write');
export const canApprove = (session: ExaminerSession) => session.scopes.includes('evidence:approve');
export const canAudit = (session: ExaminerSession) => session.scopes.includes('audit:read');

/** The API client carrying the workbench session's token. */
export function examinerSession(session: WorkbenchSession): ExaminerSession {
  return {
    token: session.accessToken,
    me: session.sub,
    scopes: session.scopes,
    api: createClient<paths>({ baseUrl: '', headers: authHeader(session) }),
  };
}
