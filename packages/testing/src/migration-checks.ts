import { readFileSync } from 'node:fs';
import { migrationChecksum, type Knex, type Migration } from '@platform/db';

/**
 * What is wrong with `migrations` against the released checksums kept in `checksumFile` (a JSON object,
 * migration name → SHA-256 of its SQL): a released migration edited or removed, or a new one not yet
 * listed. Empty when every migration is exactly as released.
 */
export function releasedMigrationProblems(migrations: Migration[], checksumFile: string): string[] {
  const released: Record<string, string> = JSON.parse(readFileSync(checksumFile, 'utf8'));
  const problems: string[] = [];
  for (const migration of migrations) {
    const checksum = migrationChecksum(migration);
    const expected = released[migration.name];
    if (expected === undefined) problems.push(`${migration.name} is new: add "${migration.name}": "${checksum}" to ${checksumFile}`);
    else if (expected !== checksum)
      problems.push(`${migration.name} changed since it was released: never edit a released migration; add a new one`);
  }
  const names = new Set(migrations.map((migration) => migration.name));
  for (const name of Object.keys(released)) {
    if (!names.has(name)) problems.push(`${name} was released but is no longer listed: never remove a released migration; add a new one`);
  }
  return problems;
}

/**
 * The values the CHECK constraint on `table.column` accepts, as a migrated database holds them
 * (PostgreSQL stores `column IN ('a', 'b')` as `column = ANY (ARRAY['a'::text, 'b'::text])`).
 */
export async function checkedValues(db: Knex, table: string, column: string): Promise<string[]> {
  const { rows } = (await db.raw(
    "SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = ?::regclass AND contype = 'c'",
    [table],
  )) as {
    rows: { definition: string }[];
  };
  const lists = rows.map((row) => row.definition).filter((definition) => definition.startsWith(`CHECK ((${column} = ANY (ARRAY[`));
  if (lists.length !== 1) throw new Error(`expected one CHECK constraint listing the values of ${table}.${column}, found ${lists.length}`);
  return [...lists[0].matchAll(/'((?:[^']|'')*)'::text/g)].map((match) => match[1].replace(/''/g, "'"));
}
