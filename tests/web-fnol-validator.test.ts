import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

describe("the portal's precompiled first-notice-of-loss validator", () => {
  it('web/src/portal/fnol-validate.generated.js is what ajv standalone makes of the intake schema now (no require, no eval)', () => {
    const check = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['web/scripts/fnol-validator.ts', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(`${check.stdout}${check.stderr}`).toContain('matches the intake schema');
    expect(check.status).toBe(0);
  }, 90000);
});
