/**
 * `pnpm run lint:api`: builds every OpenAPI document from the code (no server, database or broker), writes
 * them to .tmp/api/ and lints them with Redocly's recommended rules (redocly.yaml: any warning fails) and with
 * Spectral's `spectral:oas` (.spectral.yaml: any warning fails); then builds the AsyncAPI document of the events (the gateway's /asyncapi.json) and parses it with
 * @asyncapi/parser: any error or warning fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Parser } from '@asyncapi/parser';
import { platformAsyncApi } from '../gateway/src/asyncapi-document';
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
  const redocly = spawnSync(
    path.join(root, 'node_modules', '.bin', 'redocly'),
    ['lint', '--config', path.join(root, 'redocly.yaml'), ...files],
    {
      stdio: 'inherit',
      // no telemetry or update check: CI has no network beyond the package registries
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  const spectral = spawnSync(
    path.join(root, 'node_modules', '.bin', 'spectral'),
    ['lint', '--ruleset', path.join(root, '.spectral.yaml'), '--fail-severity', 'warn', '--format', 'text', ...files],
    { stdio: 'inherit' },
  );
  if (spectral.status === 0) console.log('spectral: no errors or warnings');
  const asyncApi = await lintAsyncApi(out);
  // a linter killed by a signal has no status: that fails too
  return [redocly.status ?? 1, spectral.status ?? 1, asyncApi].find((status) => status !== 0) ?? 0;
}

async function lintAsyncApi(out: string): Promise<number> {
  const document = platformAsyncApi();
  writeFileSync(path.join(out, 'platform.asyncapi.json'), `${JSON.stringify(document, null, 2)}\n`);
  const { diagnostics } = await new Parser().parse(JSON.stringify(document));
  const failures = diagnostics.filter((diagnostic) => diagnostic.severity <= 1); // 0 error, 1 warning
  for (const failure of failures) console.error(`asyncapi: ${failure.code} at /${failure.path.join('/')}: ${failure.message}`);
  console.log(`asyncapi: ${failures.length === 0 ? 'valid' : `${failures.length} problem(s)`}`);
  return failures.length === 0 ? 0 : 1;
}

main().then(
  (status) => process.exit(status),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
