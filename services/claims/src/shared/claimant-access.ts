import type { Request } from 'express';
import { accessTokenMatches, bearerToken } from '@platform/auth';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { claimStore, type ClaimWithTokenHash } from './claim-store';

/**
 * The claimant's bearer token, checked before anything else about the request: missing (or not a
 * Bearer header) is 401.
 */
export function requireClaimantToken(req: Request): string {
  const token = bearerToken(req);
  if (!token)
    throw problems.unauthorized(
      token === undefined ? 'Authorization: Bearer <access_token> is required' : 'The Authorization header is not a Bearer token',
    );
  return token;
}

/**
 * `read` (a claim, or what was read of it with its token hash) when the claimant token opens it. No claim
 * and a token for another claim are the same 404, so the answer reveals nothing about which claims exist.
 * The comparison is constant-time.
 */
export function openedBy<Read extends { access_token_hash: string }>(read: Read | undefined, token: string): Read {
  if (!read || !accessTokenMatches(token, read.access_token_hash)) throw problems.notFound('No such claim');
  return read;
}

/** The claim a claimant token opens; a malformed id is the same 404 as an unknown one (openedBy). */
export async function claimOpenedBy(
  db: Knex,
  claimId: string,
  token: string,
  options: { forUpdate?: boolean } = {},
): Promise<ClaimWithTokenHash> {
  return openedBy(await claimStore(db).find(claimId, options), token);
}
