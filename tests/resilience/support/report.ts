import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readAllFigures, type ScenarioFigures } from './results';

export const RELIABILITY_DOC = path.resolve(__dirname, '../../../docs/RELIABILITY.md');

/** The order scenarios appear in the document. */
const ORDER = [
  'broker-outage',
  'evidence-down',
  'database-outage',
  'crash-mid-write',
  'graceful-shutdown',
  'hostile-input',
  'access-matrix',
  'audit-tampering',
  'audit-forgery',
  'soak',
  'replicated',
  'rabbitmq-cluster',
  'postgres-failover',
  'postgres-failover-async',
];

const FINDINGS_START = '<!-- findings:start -->';
const FINDINGS_END = '<!-- findings:end -->';

function cell(text: string | number): string {
  return String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function table(figures: ScenarioFigures): string {
  const rows: [string, string | number][] = [
    ['Result', figures.passed ? 'passed' : '**FAILED**'],
    ['Load held', figures.load],
    ...(figures.rate ? [['Rate (half of saturation)', figures.rate] as [string, string]] : []),
    ['Faults injected', figures.faults],
    ['Bad inputs tried', figures.badInputsTried],
    ['Records lost', figures.recordsLost],
    ['Duplicates applied', figures.duplicatesApplied],
    ['Unexpected statuses / outcomes', figures.unexpectedStatuses],
    ['Duration', `${figures.durationSeconds.toFixed(1)} s`],
    ['Run', `${figures.ranAt}${figures.ci ? ' (CI)' : ' (local)'}`],
  ];
  const lines = [
    `### ${figures.title} (\`${figures.scenario}\`)`,
    '',
    '| | |',
    '|---|---|',
    ...rows.map(([name, value]) => `| ${name} | ${cell(value)} |`),
  ];
  if (figures.notes.length > 0) lines.push('', ...figures.notes.map((note) => `- ${note}`));
  return lines.join('\n');
}

/** Keeps the hand-written findings section of an existing document across re-renders. */
function existingFindings(): string | undefined {
  try {
    const text = readFileSync(RELIABILITY_DOC, 'utf8');
    const start = text.indexOf(FINDINGS_START);
    const end = text.indexOf(FINDINGS_END);
    if (start >= 0 && end > start) return text.slice(start, end + FINDINGS_END.length);
  } catch {
    // first render
  }
  return undefined;
}

export function renderReliability(): string {
  const figures = readAllFigures().sort((a, b) => rank(a.scenario) - rank(b.scenario));
  const summary = [
    '| Scenario | Result | Load held | Faults injected | Bad inputs tried | Records lost | Duplicates applied | Unexpected statuses / outcomes |',
    '|---|---|---|---|---|---|---|---|',
    ...figures.map(
      (f) =>
        `| ${cell(f.title)} | ${f.passed ? 'passed' : '**FAILED**'} | ${cell(f.load)} | ${cell(f.faults)} | ${f.badInputsTried} | ${f.recordsLost} | ${f.duplicatesApplied} | ${f.unexpectedStatuses} |`,
    ),
  ].join('\n');
  const findings = existingFindings() ?? `${FINDINGS_START}\n_No open findings recorded._\n${FINDINGS_END}`;
  return `# Reliability

What the platform was shown to survive, measured by \`pnpm test:resilience\` (\`tests/resilience/\`) against
real processes: the gateway, the claims service and the evidence service each run as their own Node.js
process (\`startStack\` from \`@platform/testing\`) on fresh PostgreSQL databases and the real RabbitMQ.
Load comes from a separate process (\`tests/resilience/support/load.ts\`) at a steady rate — half of the
saturation throughput of the scenario's own request mix, measured against the same stack at the start of
the scenario on the same machine (\`tests/resilience/support/saturation.ts\`); faults are
injected from the test; the end state is checked through the API and in the databases.

This file is generated: every scenario writes its figures to \`tests/resilience/.results/<scenario>.json\`
and \`tests/resilience/support/report.ts\` (run after each scenario, or by hand with
\`npx tsx tests/resilience/support/report.ts\`) renders it. The findings section between the markers is kept
across renders.

A scenario passes only with **0 records lost, 0 duplicates applied and 0 unexpected statuses or outcomes**
(an outcome: an orphaned file, a process that crashed, a shutdown that needed the force-exit, a rejected
request that changed rows); any loss, duplicate or 5xx fails the run loudly (nothing is skipped).

## How to run

\`\`\`sh
pnpm test:resilience                                   # every scenario (CI: SOAK_SECONDS defaults to 180)
SOAK_SECONDS=600 pnpm test:resilience tests/resilience/soak   # the long soak, outside CI
pnpm test:resilience tests/resilience/broker-outage    # one scenario
RESILIENCE_RUNS=5000 SOAK_SECONDS=120 pnpm test:resilience
\`\`\`

| Variable | Default | Meaning |
|---|---|---|
| \`CI\` | unset | \`true\`: the broker outage stops RabbitMQ itself (\`rabbitmqctl stop_app\`/\`start_app\`) and the soak runs 180 s |
| \`RESILIENCE_RUNS\` | 10000 | generated hostile inputs in total (hostile-input scenario) |
| \`SOAK_SECONDS\` | 180 in CI, 60 otherwise | length of the soak; CI keeps it to 3 minutes so the whole CI run stays within the hour on a 2-core machine, and the 10-minute soak runs outside CI |
| \`RESILIENCE_RATE\` | half of saturation | operations per second of the steady load; unset, each load scenario measures the saturation of its own mix against its own stack at the start (a closed loop of 8 clients for 11 s; saturation = clients ÷ mean response time after 3 s of warm-up) and runs at half of it |

Outside CI the broker is shared with other work, so the broker outage is a TCP proxy in front of RabbitMQ
that is cut and restored (every connection of the stack goes through it); the database outage is always a
TCP proxy in front of PostgreSQL, for the claims service only.

## Summary

${summary}

## Scenarios

${figures.map(table).join('\n\n')}

## Open findings

${findings}
`;
}

function rank(scenario: string): number {
  const index = ORDER.indexOf(scenario);
  return index < 0 ? ORDER.length : index;
}

export function writeReliability(): void {
  writeFileSync(RELIABILITY_DOC, renderReliability());
}

if (require.main === module) {
  writeReliability();
  console.log(`wrote ${RELIABILITY_DOC}`);
}
