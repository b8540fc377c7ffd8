import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

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
