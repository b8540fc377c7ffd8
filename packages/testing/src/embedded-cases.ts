import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createDatabase, migrate, type Knex, type Migration } from '@platform/db';
import { createTestDatabase } from './databases';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');

/**
 * PGlite loads its engine with a real dynamic import, which jest's sandbox allows only under Node's
 * `--experimental-vm-modules`. True when this jest process runs with it (the cases on PGlite run here).
 */
export function canRunEmbeddedInJest(): boolean {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].includes('--experimental-vm-modules');
}

/**
 * Runs the tests of `testFile` whose names match `namePattern` (its cases on embedded PGlite) in a child
 * jest started with `--experimental-vm-modules`, and returns how many passed and failed. With no test
 * matched, or any failed, the caller's expectation fails, so a case on PGlite can never be skipped silently.
 */
export async function runEmbeddedCases(testFile: string, namePattern: string): Promise<{ passed: number; failed: number; output: string }> {
  const jest = path.join(ROOT, 'node_modules/jest/bin/jest.js');
  const result = await run(process.execPath, ['--experimental-vm-modules', jest, '--ci', '--runInBand', testFile, '-t', namePattern], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '' },
    timeout: 240000,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }));
  const output = `${result.stdout}\n${result.stderr}`;
  const count = (word: string) => Number(new RegExp(`Tests:.*?(\\d+) ${word}`).exec(output)?.[1] ?? 0);
  return { passed: count('passed'), failed: count('failed'), output };
}

/** The databases a `describe.each` runs on: PostgreSQL, and embedded PGlite where this jest can load it. */
export const DATABASE_MODES = canRunEmbeddedInJest() ? (['postgres', 'embedded'] as const) : (['postgres'] as const);
export type DatabaseMode = 'postgres' | 'embedded';

export interface ModeDatabase {
  db: Knex;
  /** Closes the connection and drops the database (PostgreSQL) or removes its folder (PGlite). */
  close(): Promise<void>;
}

/** A migrated database of `mode`: a template-cloned PostgreSQL test database (`poolMax` connections), or PGlite in a temporary folder. */
export async function openModeDatabase(
  mode: DatabaseMode,
  name: string,
  migrations: Migration[],
  options: { poolMax?: number } = {},
): Promise<ModeDatabase> {
  if (mode === 'postgres') {
    const database = await createTestDatabase(name, migrations);
    const db = createDatabase({ url: database.url, poolMax: options.poolMax ?? 2 });
    return { db, close: async () => (await db.destroy(), await database.drop()) };
  }
  const embeddedDir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  const db = createDatabase({ embeddedDir });
  await migrate(db, migrations);
  return { db, close: async () => (await db.destroy(), rmSync(embeddedDir, { recursive: true, force: true })) };
}

/**
 * In the PostgreSQL run of a `describe.each(DATABASE_MODES)`: a test that runs the file's `embeddedDescribe` cases on
 * PGlite in a child jest (runEmbeddedCases) and passes only when all `cases` of them passed.
 */
export function itPassesOnEmbeddedToo(testFile: string, embeddedDescribe: string, cases: number): void {
  it('passes every case on embedded PGlite too', async () => {
    const result = await runEmbeddedCases(testFile, embeddedDescribe);
    expect(result.passed === cases && result.failed === 0 ? 'all passed' : result.output).toBe('all passed');
  }, 240000);
}
