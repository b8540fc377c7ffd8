/**
 * Prints the figures of a results.json as Markdown (for docs/BENCHMARKS.md):
 * `npx tsx bench/report.ts [bench/results.json]`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TARGETS } from './harness/targets';

const file = path.resolve(process.argv[2] ?? path.join(__dirname, 'results.json'));
const results = JSON.parse(readFileSync(file, 'utf8'));

const lines = [
  `Run of ${results.generated_at} (${results.mode}, ${results.duration_s} s) on ${results.machine.cpus} × ${results.machine.cpu_model}, ` +
    `${results.machine.memory_gb} GB, ${results.machine.os}, Node ${results.machine.node}, PostgreSQL ${results.machine.postgres}, ${results.machine.nginx}.`,
  '',
  '| key | value | target | met |',
  '|---|---|---|---|',
  ...TARGETS.map(({ key }) => {
    const target = results.targets[key];
    // a target added after this run was made
    if (!target) return `| \`${key}\` | n/a | not measured in this run | — |`;
    return `| \`${key}\` | ${target.value ?? 'n/a'} | ${target.target} | ${target.met ? 'yes' : '**no**'} |`;
  }),
];
if (results.errors?.length)
  lines.push(
    '',
    'Errors:',
    ...results.errors.map((e: { scenario: string; error: string }) => `- ${e.scenario}: ${e.error.split('\n')[0]}`),
  );
process.stdout.write(`${lines.join('\n')}\n`);
