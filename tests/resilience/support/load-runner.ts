import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoadRecord, LoadSpec } from './load';

const ROOT = path.resolve(__dirname, '../../..');

export interface RunningLoad {
  pid: number | undefined;
  /** Asks the generator to stop scheduling; resolves with every record once in-flight requests ended. */
  stop(): Promise<LoadRecord[]>;
  /** Resolves when the generator ends on its own (count or time bound reached). */
  finished(): Promise<LoadRecord[]>;
  /** What has been recorded so far. */
  records(): LoadRecord[];
  /**
   * Resolves once the first request was answered: the generator (a tsx process) can take seconds to start on a
   * loaded machine, and a fault injected before that would meet no load.
   */
  running(): Promise<void>;
}

/** Starts `support/load.ts` as a separate process (tsx) with `spec`; results come back as JSON lines. */
export function startLoad(spec: LoadSpec): RunningLoad {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'load-')), 'records.jsonl');
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(__dirname, 'load.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOAD_SPEC: JSON.stringify(spec), LOAD_OUT: out },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr = (stderr + chunk).slice(-20000)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const records = (): LoadRecord[] => {
    if (!existsSync(out)) return [];
    return readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LoadRecord);
  };
  const finished = async () => {
    const code = await exited;
    if (code !== 0) throw new Error(`load generator exited with ${code}:\n${stderr}`);
    return records();
  };
  return {
    pid: child.pid,
    records,
    finished,
    async running() {
      while (records().length === 0) {
        if (child.exitCode !== null) throw new Error(`load generator exited before its first answer:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return finished();
    },
  };
}

/** Records whose outcome is not one of `expected` statuses (network errors included). */
export function unexpected(records: LoadRecord[], expected: (record: LoadRecord) => boolean): LoadRecord[] {
  return records.filter((record) => !expected(record));
}

export function describeRecords(records: LoadRecord[], max = 10): string {
  return records
    .slice(0, max)
    .map((r) => `#${r.i} ${r.op} → ${r.status ?? r.error} after ${r.ended - r.started} ms`)
    .join('; ');
}

/** How many records ended with each status (or network error), e.g. "3× 503, 1× ECONNRESET"; "none" for none. */
export function describeStatuses(records: LoadRecord[]): string {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(String(r.status ?? r.error), (counts.get(String(r.status ?? r.error)) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n}× ${status}`).join(', ') || 'none';
}
