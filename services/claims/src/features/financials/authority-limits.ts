import { isAmount, toCents } from './money';

/**
 * Payment authority limits (`PAYMENT_AUTHORITY_LIMITS`): `scope=amount` or `user:<sub>=amount` entries,
 * e.g. `claims:write=5000,claims:decide=50000,user:lead-7=250000`. A user's own entry wins over their
 * scopes; otherwise the highest limit among the scopes they hold; with neither, 0 (every payment waits).
 */
export interface AuthorityLimits {
  scopes: ReadonlyMap<string, bigint>;
  users: ReadonlyMap<string, bigint>;
}

const USER_PREFIX = 'user:';

/** Parses the entries; throws one message naming every malformed entry. */
export function parseAuthorityLimits(entries: readonly string[]): AuthorityLimits {
  const scopes = new Map<string, bigint>();
  const users = new Map<string, bigint>();
  const refused: string[] = [];
  for (const entry of entries) {
    const at = entry.lastIndexOf('=');
    const key = at < 0 ? '' : entry.slice(0, at).trim();
    const amount = at < 0 ? '' : entry.slice(at + 1).trim();
    const user = key.startsWith(USER_PREFIX) ? key.slice(USER_PREFIX.length) : undefined;
    const target = user === undefined ? scopes : users;
    const name = user ?? key;
    if (name === '' || !isAmount(amount) || target.has(name)) refused.push(entry);
    else target.set(name, toCents(amount));
  }
  if (refused.length > 0) {
    throw new Error(
      `PAYMENT_AUTHORITY_LIMITS entries must be scope=amount or user:<sub>=amount, each named once, amounts like 5000 or 5000.00; refused: ${refused.join(', ')}`,
    );
  }
  return { scopes, users };
}

/** The caller's limit in cents. */
export function authorityLimitOf(limits: AuthorityLimits, caller: { sub: string; scopes: ReadonlySet<string> }): bigint {
  const own = limits.users.get(caller.sub);
  if (own !== undefined) return own;
  let highest = 0n;
  for (const scope of caller.scopes) {
    const limit = limits.scopes.get(scope);
    if (limit !== undefined && limit > highest) highest = limit;
  }
  return highest;
}
