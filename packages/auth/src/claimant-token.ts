import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, URL-safe: handed to the claimant once and never stored. */
export function generateAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of the token. */
export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented token with the stored hash. */
export function accessTokenMatches(token: string, storedHash: string): boolean {
  const presented = Buffer.from(hashAccessToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
