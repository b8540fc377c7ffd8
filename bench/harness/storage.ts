import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface DeviceActivity {
  writesInFlight: number;
  sectorsWritten: number;
}

/** The block device of a path as /proc/diskstats names it (major:minor of the file system's device). */
async function deviceOf(dir: string): Promise<{ major: number; minor: number }> {
  const { dev } = await stat(dir);
  // Linux encodes dev_t as (major << 8 | minor) for the small numbers a virtual disk has, with the rest of the minor above bit 20.
  return { major: (dev >> 8) & 0xfff, minor: (dev & 0xff) | ((dev >> 12) & 0xfff00) };
}

/** The write counters of the block device under `dir`; undefined when it is not a block device (tmpfs, overlay). */
export async function deviceActivity(dir: string): Promise<DeviceActivity | undefined> {
  const device = await deviceOf(dir);
  const lines = (await readFile('/proc/diskstats', 'utf8')).split('\n');
  for (const line of lines) {
    const fields = line.trim().split(/\s+/);
    if (Number(fields[0]) !== device.major || Number(fields[1]) !== device.minor) continue;
    // Fields after the name: reads completed, merged, sectors, ms; writes completed, merged, sectors, ms; I/Os in progress, …
    return { sectorsWritten: Number(fields[9]), writesInFlight: Number(fields[11]) };
  }
  return undefined;
}

export interface SettleResult {
  /** Time spent flushing and waiting for the device to go quiet, before the fixed pause. */
  drain_ms: number;
  /** False when the device never stayed quiet for `quietMs` before `timeoutMs` (other writers on the machine). */
  quiet: boolean;
}

/**
 * Puts the storage under `dir` in the same state before every measured round of either side: dirty pages
 * written out (`sync -f`, the file system's own), then the device quiet — nothing in flight and no
 * sectors written — for `quietMs`, then `pauseMs` more for what the host's storage does below the
 * device, which this machine cannot see. A round's rate then depends on its own writes, not on whether
 * the round before it left the storage busy.
 */
export async function settleStorage(
  dir: string,
  { pauseMs, quietMs = 500, timeoutMs = 10000 }: { pauseMs: number; quietMs?: number; timeoutMs?: number },
): Promise<SettleResult> {
  const started = Date.now();
  await run('sync', ['-f', dir]);
  let last = await deviceActivity(dir);
  let quietSince = Date.now();
  let quiet = false;
  while (last && Date.now() - started < timeoutMs) {
    await sleep(100);
    const now = await deviceActivity(dir);
    if (!now) break;
    if (now.writesInFlight > 0 || now.sectorsWritten !== last.sectorsWritten) quietSince = Date.now();
    last = now;
    if (Date.now() - quietSince >= quietMs) {
      quiet = true;
      break;
    }
  }
  const drained = Date.now() - started;
  await sleep(pauseMs);
  return { drain_ms: drained, quiet };
}
