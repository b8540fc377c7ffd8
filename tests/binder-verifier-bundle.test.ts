import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { bundleBinderVerifier, VERIFIER_BUNDLE } from '../scripts/bundle-binder-verifier';

describe('verify.mjs, the offline binder verifier', () => {
  it('is the current bundle of its sources (regenerate with npx tsx scripts/bundle-binder-verifier.ts)', () => {
    expect(readFileSync(VERIFIER_BUNDLE, 'utf8')).toBe(bundleBinderVerifier());
  });

  it('imports nothing but Node.js built-ins', () => {
    const imports = [...readFileSync(VERIFIER_BUNDLE, 'utf8').matchAll(/(?:from\s+|require\()\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
    expect(
      imports.filter((specifier) => !specifier.startsWith('node:') && !specifier.startsWith('.') && !specifier.startsWith('@platform/')),
    ).toEqual([]);
  });

  it('run without arguments, says it needs the pinned service key and where to get it, and exits 2', () => {
    const result = spawnSync(process.execPath, [VERIFIER_BUNDLE], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(result.status).toBe(2);
    expect(result.stdout).toMatch(/^verify\.mjs needs the binder and the service's pinned verifier key/);
    expect(result.stdout).toContain('--service-key <service verifier key>');
    expect(result.stdout).toContain('GET /api/evidence/audit/verifier-keys');
    expect(result.stdout).toContain('examiner');
  });
});
