import createClient from 'openapi-fetch';
import { useMemo } from 'react';
import type { paths } from '../api/schema';

/**
 * The workbench keeps the signed-in person's access token in sessionStorage under this key (for this tab
 * only); the sign-in puts it there and every workbench page, the examiner desk included, reads it.
 */
export const WORKBENCH_TOKEN_KEY = 'workbench-token';

export function readWorkbenchToken(): string | null {
  return sessionStorage.getItem(WORKBENCH_TOKEN_KEY);
}

/** The token's `sub`, to say "you" on the page. Only for display: the services check the signature. */
export function tokenSubject(token: string): string | null {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}

export interface ExaminerSession {
  token: string;
  me: string | null;
  api: ReturnType<typeof createClient<paths>>;
}

/** The API client carrying the workbench token, or null when nobody is signed in in this tab. */
export function useExaminerSession(): ExaminerSession | null {
  const token = readWorkbenchToken();
  return useMemo(
    () =>
      token
        ? { token, me: tokenSubject(token), api: createClient<paths>({ baseUrl: '', headers: { Authorization: `Bearer ${token}` } }) }
        : null,
    [token],
  );
}
