/** Unit and integration tests: every package and service, against real PostgreSQL and RabbitMQ. */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testMatch: ['<rootDir>/{packages,services,gateway}/**/*.test.ts', '<rootDir>/tests/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/tests/resilience/'],
  globalSetup: '<rootDir>/tests/global-setup.ts',
  testTimeout: 30000,
  maxWorkers: 2,
};
