import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

describe("the web pages' generated API types", () => {
  it('web/src/api/schema.d.ts is what openapi-typescript makes of the OpenAPI document the code builds now', () => {
    const check = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['web/scripts/api-schema.ts', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(`${check.stdout}${check.stderr}`).toContain('matches the OpenAPI document');
    expect(check.status).toBe(0);
  }, 90000);
});
