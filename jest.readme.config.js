/** The README's own first command as a test (`.ci/run` runs it alone, after the suites): `npx pnpm start`, nothing configured. */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testMatch: ['<rootDir>/tests/readme-start/*.test.ts'],
  testTimeout: 300000,
  maxWorkers: 1,
};
