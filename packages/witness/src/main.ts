import { runStandaloneWitness } from './standalone';

runStandaloneWitness().then(
  (witness) => {
    const shutdown = () => void witness.close().then(() => process.exit(0));
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
