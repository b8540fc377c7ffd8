/** Unit and integration tests: every package and service, against real PostgreSQL and RabbitMQ. */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testMatch: ['<rootDir>/{packages,services,gateway}/**/*.test.ts', '<rootDir>/tests/**/*.test.ts'],
  // resilience and the README's start run on their own (jest.resilience.config.js, jest.readme.config.js)
  testPathIgnorePatterns: ['/node_modules/', '/tests/resilience/', '/tests/readme-start/'],
  globalSetup: '<rootDir>/tests/global-setup.ts',
  testTimeout: 30000,
  maxWorkers: 2,
};
