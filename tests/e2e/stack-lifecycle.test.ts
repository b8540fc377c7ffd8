import { existsSync, readFileSync } from 'node:fs';
import { SERVICE_ENVIRONMENT, SERVICE_NODE_FLAGS } from '@platform/runtime';
import { startStack } from '@platform/testing';

// Deployed shape only: it checks the three separate processes themselves (flags, environment, data directories);
// the embedded start is one process, covered by embedded-start.test.ts.
describe('the three-process stack the tests and the benchmark start', () => {
  it('runs every service with the flags and environment production runs it with, and leaves no data directory behind', async () => {
    const stack = await startStack();
    let stopped = false;
    try {
      for (const service of [stack.gateway, stack.claims, stack.evidence]) {
        const args = readFileSync(`/proc/${service.pid()}/cmdline`, 'utf8').split('\0');
        expect(args).toEqual(expect.arrayContaining([...SERVICE_NODE_FLAGS]));
        const environment = readFileSync(`/proc/${service.pid()}/environ`, 'utf8').split('\0');
        expect(environment).toEqual(expect.arrayContaining(Object.entries(SERVICE_ENVIRONMENT).map(([name, value]) => `${name}=${value}`)));
      }
      expect(existsSync(stack.env.DATA_DIR)).toBe(true);
      await stack.stop();
      stopped = true;
      expect(existsSync(stack.env.DATA_DIR)).toBe(false);
    } finally {
      if (!stopped) await stack.stop();
    }
  }, 120000);
});
