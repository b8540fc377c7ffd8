/** Renders docs/CONFIGURATION.md from the variable declarations the processes read (`tsx scripts/config-docs.ts > docs/CONFIGURATION.md`). */
import { describeVariables } from '@platform/config';
import { commonServiceVariables } from '@platform/runtime';
import { telemetryVariables } from '@platform/telemetry';
import { claimsVariables } from '../services/claims/src/config';
import { evidenceVariables } from '../services/evidence/src/config';
import { gatewayVariables } from '../gateway/src/config';
import { platformVariables } from './platform-variables';

export function renderConfigurationDoc(): string {
  return [
    '# Configuration',
    '',
    'Every process reads its configuration once, from the environment, and stops with a message naming the',
    'variable when a value is invalid. This file is generated from the declarations in the code',
    '(`npx tsx scripts/config-docs.ts > docs/CONFIGURATION.md`); a test keeps it current.',
    '',
    '## `pnpm start` (the whole platform in one process)',
    '',
    describeVariables(platformVariables),
    '',
    'It also passes `AMQP_URL`, `DATA_DIR`, `AUTH_*`, `NODE_ENV` and the service variables below to every process.',
    '',
    '## Both services',
    '',
    describeVariables(commonServiceVariables),
    '',
    '## Claims service',
    '',
    describeVariables(claimsVariables),
    '',
    '## Evidence service',
    '',
    describeVariables(evidenceVariables),
    '',
    '## Gateway',
    '',
    describeVariables(gatewayVariables),
    '',
    '## Tracing (every process)',
    '',
    describeVariables(telemetryVariables),
    '',
  ].join('\n');
}

if (require.main === module) process.stdout.write(renderConfigurationDoc());
