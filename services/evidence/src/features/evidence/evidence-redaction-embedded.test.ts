import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../../../..');

/** Embedded mode (PGlite, local storage) runs in a child process: PGlite needs a real dynamic import. */
describe('redacting an evidence file on embedded PGlite', () => {
  it("supersedes it, destroys the original's bytes, refuses a second redaction, and the log verifies", async () => {
    const { stdout } = await run(
      path.join(root, 'node_modules/.bin/tsx'),
      [path.join(__dirname, '../../testing/embedded-redaction-scenario.ts')],
      { cwd: root, env: { ...process.env, LOG_LEVEL: 'silent' }, timeout: 100000 },
    );
    expect(JSON.parse(stdout.trim().split('\n').pop() ?? '{}')).toEqual({
      redaction: 201,
      supersedes: true,
      again: 409,
      content: 410,
      originalBytesStored: false,
      redactedBytesStored: true,
      logValid: true,
    });
  }, 110000); // PGlite compiles its WebAssembly at start
});
