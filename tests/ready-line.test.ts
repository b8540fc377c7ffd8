import { backendsDescription, pagesDescription } from '../scripts/ready-line';

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
});
