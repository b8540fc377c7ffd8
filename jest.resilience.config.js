/** Fault, load and hostile-input scenarios against real processes. Run one file at a time. */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testMatch: ['<rootDir>/tests/resilience/**/*.test.ts'],
  globalSetup: '<rootDir>/packages/testing/src/global-setup.ts',
  testTimeout: 300000,
  maxWorkers: 1,
};
