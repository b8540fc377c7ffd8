import { generateKeyPairSync } from 'node:crypto';
import { formatWitnessVerifierKey, parseWitnessVerifierKey } from '../packages/witness/src';
import { backendsDescription, pagesDescription, witnessDescription } from '../scripts/ready-line';

describe("pnpm start's ready line", () => {
  it('describes the databases and the bus each by its own setting', () => {
    expect(backendsDescription({ dataDir: './data' })).toBe('databases: embedded PGlite in ./data · bus: in-process event bus');
    const pg = 'postgres://127.0.0.1/x';
    expect(backendsDescription({ claimsDatabaseUrl: pg, evidenceDatabaseUrl: pg, dataDir: './data' })).toBe(
      'databases: PostgreSQL · bus: in-process event bus',
    );
    expect(backendsDescription({ amqpUrl: 'amqp://127.0.0.1', dataDir: './data' })).toBe(
      'databases: embedded PGlite in ./data · bus: RabbitMQ',
    );
    expect(backendsDescription({ claimsDatabaseUrl: pg, dataDir: './data' })).toBe(
      'claims database: PostgreSQL, evidence database: embedded PGlite in ./data · bus: in-process event bus',
    );
  });

  it('names the portal and the workbench at the gateway', () => {
    expect(pagesDescription('http://localhost:8080')).toBe(
      'portal http://localhost:8080/portal/ · workbench http://localhost:8080/workbench/',
    );
  });

  it('names the hosted witness by the verifier key an examiner pins, and says nothing of a witness when none is hosted', () => {
    const key = formatWitnessVerifierKey('claims-platform-witness', generateKeyPairSync('ed25519').privateKey);
    const described = witnessDescription(key)!;
    const named = /^witness (\S+)$/.exec(described)?.[1];
    expect(named).toBe(key);
    expect(parseWitnessVerifierKey(named!)?.witnessName).toBe('claims-platform-witness');
    expect(witnessDescription(undefined)).toBeUndefined();
  });
});
