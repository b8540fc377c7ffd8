import { UUID_PATTERN, problems } from '@platform/http';

/** Who may read controls, runs and binder metadata: the people doing, approving and examining the work. */
export const READ_SCOPES = ['evidence:write', 'evidence:approve', 'audit:read'];

/** The answers every operation with scopes documents (defineRoute admits the caller: 401 without a verified JWT, 403 without a scope). */
export const AUTH_ERRORS = { 401: { description: 'No or invalid credentials' }, 403: { description: 'Missing scope' } } as const;

/** A path id that is not a UUID names nothing: 404, never a database cast error. */
export function assertUuidPath(id: string, what: string): string {
  if (!UUID_PATTERN.test(id)) throw problems.notFound(`No ${what} ${id}`);
  return id.toLowerCase();
}
