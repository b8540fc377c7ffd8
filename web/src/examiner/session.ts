import createClient from 'openapi-fetch';
import type { paths } from '../api/schema';
import type { WorkbenchSession } from '../workbench/session';

/**
 * The workbench keeps the signed-in person's access token in sessionStorage under this key (for this tab
 * only); the sign-in puts it there and every workbench page, the examiner desk included, reads it.
 */
export const WORKBENCH_TOKEN_KEY = 'workbench-token';

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
    api: createClient<paths>({ baseUrl: '', headers: { Authorization: `Bearer ${session.accessToken}` } }),
  };
}
