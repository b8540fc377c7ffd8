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
});
