import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');

/**
 * Embedded mode (no DATABASE_URL, no AMQP_URL: PGlite and the in-process bus) for a first `pnpm start`.
 * PGlite needs a real dynamic import, which jest's sandbox lacks, so the scenario runs in a child process.
 */
describe('on embedded PGlite with the in-process bus', () => {
  it('migrates (multi-statement SQL included) once, enforces append-only tables, rolls back, and relays events applied once', async () => {
    const { stdout } = await run(path.join(root, 'node_modules/.bin/tsx'), [path.join(__dirname, 'fixtures/embedded-scenario.ts')], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'silent' },
      timeout: 80000,
    });
    const observed = JSON.parse(stdout.trim().split('\n').pop() ?? '{}');
    expect(observed).toEqual({
      embedded: true,
      ledgerRuns: 1,
      update: expect.stringContaining('ledger is append-only: UPDATE is not allowed'),
      delete: expect.stringContaining('ledger is append-only: DELETE is not allowed'),
      truncate: expect.stringContaining('ledger is append-only: TRUNCATE is not allowed'),
      rolledBack: 'use case failed',
      rolledBackRows: 0,
      delivered: 3,
      redelivered: false,
      effects: 3,
      pending: 0,
      // the queue's vacuum threshold (0001_messaging_outbox_vacuum) is accepted and kept by PGlite too
      outboxOptions: ['autovacuum_vacuum_scale_factor=0', 'autovacuum_vacuum_threshold=1000'],
    });
  }, 90000); // PGlite compiles its WebAssembly at start: ~7 s alone, far more on a loaded machine
});
