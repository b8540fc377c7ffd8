import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../../../..');

/** Embedded mode (PGlite + in-process bus) runs in a child process: PGlite needs a real dynamic import. */
describe('audit log on embedded PGlite and the in-process bus', () => {
  it('records claim events once, dead-letters poison, appends concurrently, checkpoints with a generated key and verifies', async () => {
    const { stdout } = await run(
      path.join(root, 'node_modules/.bin/tsx'),
      [path.join(__dirname, '../../testing/embedded-audit-scenario.ts')],
      {
        cwd: root,
        env: { ...process.env, LOG_LEVEL: 'silent' },
        timeout: 100000,
      },
    );
    expect(JSON.parse(stdout.trim().split('\n').pop() ?? '{}')).toEqual({
      verify: { status: 200, valid: true, records_checked: 6, signature_valid: true },
      claimRecords: 1,
      claimEventId: true,
      poisonDeadLettered: true,
      publicKey: true,
    });
  }, 110000); // PGlite compiles its WebAssembly at start
});
