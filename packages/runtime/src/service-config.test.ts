import { ConfigError, variable } from '@platform/config';
import { readServiceConfig } from './service-config';

const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://claims@db/claims',
  AMQP_URL: 'amqp://broker',
  AUTH_JWT_SECRET: 'x'.repeat(32),
  OBJECT_STORE_URL: 's3://claims-files',
};

/** A service's own variables: here only where its files go, as both services declare it. */
const specific = { OBJECT_STORE_URL: variable.string('object store') };

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    readServiceConfig(specific, env);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
}

describe('service configuration', () => {
  it('accepts a 32-byte AUTH_JWT_SECRET in production and refuses a shorter one, counting bytes', () => {
    expect(problemsOf(production)).toEqual([]);
    expect(problemsOf({ ...production, AUTH_JWT_SECRET: 'short' })).toEqual([
      'AUTH_JWT_SECRET must be at least 32 bytes in production, got 5',
    ]);
    // 16 two-byte characters are 32 bytes
    expect(problemsOf({ ...production, AUTH_JWT_SECRET: 'é'.repeat(16) })).toEqual([]);
    expect(problemsOf({ ...production, AUTH_JWT_SECRET: 'é'.repeat(15) })).toEqual([
      'AUTH_JWT_SECRET must be at least 32 bytes in production, got 30',
    ]);
    // outside production a short secret is a developer's choice
    expect(problemsOf({ AUTH_JWT_SECRET: 'short' })).toEqual([]);
  });

  it('reports every configuration error at once', () => {
    expect(
      problemsOf({
        NODE_ENV: 'production',
        AUTH_JWT_SECRET: 'short',
        PORT: 'eighty',
        DB_POOL_MAX: '0',
        HEADERS_TIMEOUT_MS: '20000',
        REQUEST_TIMEOUT_MS: '10000',
        MIGRATION_DATABASE_URL: 'postgres://owner@db/claims',
      }),
    ).toEqual([
      'PORT must be a whole number, got "eighty"',
      'DB_POOL_MAX must be between 1 and 1000, got 0',
      'REQUEST_TIMEOUT_MS (10000) must be at least HEADERS_TIMEOUT_MS (20000)',
      'MIGRATION_DATABASE_URL needs DATABASE_URL (the role the service runs as)',
      'DATABASE_URL must be set in production (embedded PGlite is for development)',
      'AMQP_URL must be set in production (the in-process bus is for development)',
      'OBJECT_STORE_URL must be set in production: files in DATA_DIR are seen by one replica only (set LOCAL_FILES_SINGLE_REPLICA=true where exactly one replica runs)',
      'AUTH_JWT_SECRET must be at least 32 bytes in production, got 5',
    ]);
  });

  it('refuses local file storage in production unless exactly one replica is declared (LOCAL_FILES_SINGLE_REPLICA)', () => {
    const local = { ...production, OBJECT_STORE_URL: undefined };
    expect(problemsOf(local)).toEqual([
      'OBJECT_STORE_URL must be set in production: files in DATA_DIR are seen by one replica only (set LOCAL_FILES_SINGLE_REPLICA=true where exactly one replica runs)',
    ]);
    expect(problemsOf({ ...local, LOCAL_FILES_SINGLE_REPLICA: 'true' })).toEqual([]);
    expect(problemsOf({ OBJECT_STORE_URL: undefined })).toEqual([]);
  });

  it('takes the database pool size from DB_POOL_MAX, 10 by default', () => {
    expect(readServiceConfig({}, {}).DB_POOL_MAX).toBe(10);
    expect(readServiceConfig({}, { DB_POOL_MAX: '25' }).DB_POOL_MAX).toBe(25);
  });
});
