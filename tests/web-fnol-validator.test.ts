import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

describe("the pages' precompiled validators of the API's request schemas", () => {
  it('the portal’s first-notice-of-loss and the composer’s status update and closing validators are what ajv standalone makes of the schemas now (no require, no eval)', () => {
    const check = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['web/scripts/fnol-validator.ts', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(`${check.stdout}${check.stderr}`).toContain('fnol-validate.generated.js matches the first-notice-of-loss schema');
    expect(`${check.stdout}${check.stderr}`).toContain(
      'status-update-validate.generated.js matches the status update and closing request schemas',
    );
    expect(check.status).toBe(0);
  }, 90000);
});
