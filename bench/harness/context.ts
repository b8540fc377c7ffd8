import type { Stack, StackEntries } from '@platform/testing';
import type { LoadGenerator } from './load-client';

/** How long and how big: `pnpm bench` (full) or `pnpm bench --quick` (CI smoke test, < 2 minutes). */
export interface BenchParameters {
  mode: 'full' | 'quick';
  /** Load before each measured series, never counted (seconds, fractions allowed). */
  warmupSec: number;
  /** Length of one measured round; every figure is the median of `rounds` rounds. */
  roundSec: number;
  rounds: number;
  /** HTTP connections of the saturation runs (proxy, status). */
  connections: number;
  /** In-flight intakes (HTTP connections) and bare-SQL transactions (pg clients): the claims pool size. */
  intakeConcurrency: number;
  /** Claims in the table at 1× of the growth series (at least; then 10× and 100× of what 1× had). */
  claimBase: number;
  /** Records in the audit log at 1× of the verify series (then 10× and 100×). */
  auditBase: number;
  growthRounds: number;
  eventsSec: number;
  uploadCount: number;
  uploadConcurrency: number;
  uploadBytes: number;
  /** The pause after the storage has settled, before each upload round of either side (settleStorage). */
  storagePauseMs: number;
  binderItems: number;
  /** The mixed load: its saturation measurement, then this long at 70% of it. */
  mixedSaturationSec: number;
  mixedSec: number;
  /** An arrival rate (requests/s) in place of 70% of the saturation: the same load for two versions. */
  mixedRate?: number;
}

export function parameters(quick: boolean): BenchParameters {
  return quick
    ? {
        mode: 'quick',
        warmupSec: 0.5,
        roundSec: 1,
        rounds: 1,
        connections: 32,
        intakeConcurrency: 10,
        claimBase: 300,
        auditBase: 200,
        growthRounds: 2,
        eventsSec: 3,
        uploadCount: 8,
        uploadConcurrency: 8,
        uploadBytes: 25 * 1024 * 1024,
        storagePauseMs: 500,
        binderItems: 100,
        mixedSaturationSec: 2,
        mixedSec: 30,
      }
    : {
        mode: 'full',
        warmupSec: 3,
        roundSec: 6,
        rounds: 5,
        connections: 32,
        intakeConcurrency: 10,
        claimBase: 10000,
        auditBase: 10000,
        growthRounds: 3,
        eventsSec: 15,
        uploadCount: 32,
        uploadConcurrency: 8,
        uploadBytes: 25 * 1024 * 1024,
        storagePauseMs: 2000,
        binderItems: 10000,
        mixedSaturationSec: 10,
        mixedSec: 600,
      };
}

export interface BenchContext {
  params: BenchParameters;
  load: LoadGenerator;
  stack: Stack;
  /** The production build every platform process runs from: its main.js per process (scripts/build-production.ts). */
  build: StackEntries;
  workDir: string;
  /** Extra environment of the platform processes a scenario starts itself (NODE_OPTIONS=--cpu-prof with --profile). */
  processEnv: Record<string, string>;
  /** Process trees by name, to attribute CPU profiles (a scenario registers the processes it starts). */
  processes: Record<string, number[]>;
  /** Figures other scenarios reuse (e.g. intake saturation for the event load). */
  shared: Record<string, number>;
  log(line: string): void;
}

/** One scenario: its figures (nested keys of results.json) and the details that explain them. */
export type ScenarioResult = Record<string, unknown>;

export interface Scenario {
  /** Top-level key in results.json. */
  name: string;
  /** Every key this scenario reports, so results.json has them even when it fails. */
  keys: string[];
  run(context: BenchContext): Promise<ScenarioResult>;
}
