/**
 * `pnpm run lint:api`: builds every OpenAPI document from the code (no server, database or broker), writes
 * them to .tmp/api/ and lints them with Redocly's recommended rules (redocly.yaml: any warning fails).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { platformDocuments } from './api-documents';

async function main(): Promise<number> {
  const root = path.resolve(__dirname, '..');
  const out = path.join(root, '.tmp', 'api');
  mkdirSync(out, { recursive: true });
  const files = Object.entries(await platformDocuments()).map(([name, document]) => {
    const file = path.join(out, `${name}.openapi.json`);
    writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
    return file;
  });
  const redocly = spawnSync(path.join(root, 'node_modules', '.bin', 'redocly'), ['lint', '--config', path.join(root, 'redocly.yaml'), ...files], {
    stdio: 'inherit',
    // no telemetry or update check: CI has no network beyond the package registries
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  return redocly.status ?? 1;
}

main().then(
  (status) => process.exit(status),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
