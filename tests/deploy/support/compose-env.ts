/** Throw-away values for every variable docker-compose.yml requires (its secrets and passwords). */
export const COMPOSE_REQUIRED_ENV: Record<string, string> = {
  AUTH_JWT_SECRET: 'compose-test-secret-compose-test-secret',
  AUDIT_SIGNING_KEY: 'test',
  POSTGRES_PASSWORD: 'test-postgres',
  CLAIMS_DB_PASSWORD: 'test-claims',
  EVIDENCE_DB_PASSWORD: 'test-evidence',
  CLAIMS_MIGRATOR_DB_PASSWORD: 'test-claims-migrator',
  EVIDENCE_MIGRATOR_DB_PASSWORD: 'test-evidence-migrator',
  RABBITMQ_PASSWORD: 'test-rabbitmq',
  OBJECT_STORE_SECRET_ACCESS_KEY: 'test-object-store',
};
