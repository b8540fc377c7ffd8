import { mkdtemp, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { deviceActivity, settleStorage } from '../bench/harness/storage';

// The upload scenario's data directory is on the repository's file system; so is this one.
const parent = path.join(__dirname, '..');

describe("the benchmark's storage settling", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(parent, '.bench-storage-test-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('finds the block device under a directory and counts the sectors an fsynced file writes to it', async () => {
    const before = await deviceActivity(dir);
    expect(before).toBeDefined();
    const file = await open(path.join(dir, 'data.bin'), 'w');
    await file.write(Buffer.alloc(4 * 1024 * 1024, 1));
    await file.sync();
    await file.close();
    const after = await deviceActivity(dir);
    expect(after!.sectorsWritten - before!.sectorsWritten).toBeGreaterThanOrEqual((4 * 1024 * 1024) / 512);
  });

  it('writes out what is dirty, then waits for the device to stay quiet — or gives up at the timeout', async () => {
    const before = await deviceActivity(dir);
    const file = await open(path.join(dir, 'unsynced.bin'), 'w');
    await file.write(Buffer.alloc(8 * 1024 * 1024, 2));
    await file.close();
    const result = await settleStorage(dir, { quietMs: 200, pauseMs: 0, timeoutMs: 3000 });
    const after = await deviceActivity(dir);
    expect(after!.sectorsWritten - before!.sectorsWritten).toBeGreaterThanOrEqual((8 * 1024 * 1024) / 512);
    // Other tests write to the same disk in CI, so the device may not go quiet; either way the wait is bounded.
    expect(result.drain_ms).toBeGreaterThanOrEqual(result.quiet ? 200 : 3000);
    expect(result.drain_ms).toBeLessThan(20000);
  });
});
