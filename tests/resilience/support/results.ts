import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const RESULTS_DIR = path.resolve(__dirname, '../.results');

/** What one scenario held, injected and found. Zeros in the last three columns are the pass mark. */
export interface ScenarioFigures {
  scenario: string;
  title: string;
  /** The load held, in words and numbers (e.g. "412 intake requests at 8/s over 52 s"). */
  load: string;
  /** For a load scenario: the saturation measured and the rate used (see support/saturation.ts). */
  rate?: string;
  /** The faults injected (e.g. "broker cut for 12 s"). */
  faults: string;
  badInputsTried: number;
  recordsLost: number;
  duplicatesApplied: number;
  unexpectedStatuses: number;
  passed: boolean;
  durationSeconds: number;
  ranAt: string;
  ci: boolean;
  notes: string[];
}

export type FiguresInput = Omit<ScenarioFigures, 'ranAt' | 'ci' | 'passed' | 'notes'> & { passed?: boolean; notes?: string[] };

/** Writes `.results/<scenario>.json`. `passed` defaults to "nothing lost, duplicated or unexpected". */
export function writeFigures(input: FiguresInput): ScenarioFigures {
  const figures: ScenarioFigures = {
    ...input,
    notes: input.notes ?? [],
    passed: input.passed ?? (input.recordsLost === 0 && input.duplicatesApplied === 0 && input.unexpectedStatuses === 0),
    ranAt: new Date().toISOString(),
    ci: process.env.CI === 'true',
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, `${input.scenario}.json`), `${JSON.stringify(figures, null, 2)}\n`);
  return figures;
}

export function readAllFigures(): ScenarioFigures[] {
  let files: string[];
  try {
    files = readdirSync(RESULTS_DIR).filter((file) => file.endsWith('.json'));
  } catch {
    return [];
  }
  return files.map((file) => JSON.parse(readFileSync(path.join(RESULTS_DIR, file), 'utf8')) as ScenarioFigures);
}
