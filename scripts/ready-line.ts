/** What `pnpm start` says it runs on: each service's database and the event bus, each described by its own setting. */
export function backendsDescription(settings: {
  claimsDatabaseUrl?: string;
  evidenceDatabaseUrl?: string;
  amqpUrl?: string;
  dataDir: string;
}): string {
  const database = (url: string | undefined) => (url ? 'PostgreSQL' : `embedded PGlite in ${settings.dataDir}`);
  const claims = database(settings.claimsDatabaseUrl);
  const evidence = database(settings.evidenceDatabaseUrl);
  const databases = claims === evidence ? `databases: ${claims}` : `claims database: ${claims}, evidence database: ${evidence}`;
  return `${databases} · bus: ${settings.amqpUrl ? 'RabbitMQ' : 'in-process event bus'}`;
}

/** The pages `pnpm start` serves, as links to open. */
export function pagesDescription(gatewayUrl: string): string {
  return `portal ${gatewayUrl}/portal/ · workbench ${gatewayUrl}/workbench/`;
}

/**
 * The witness of the audit log that `pnpm start` hosts in development, named by the C2SP verifier key an
 * examiner pins (`verify.mjs --witness-key`); undefined when none runs (production, or one configured explicitly).
 */
export function witnessDescription(verifierKey: string | undefined): string | undefined {
  return verifierKey ? `witness ${verifierKey}` : undefined;
}
