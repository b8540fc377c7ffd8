import { execFileSync } from 'node:child_process';
import type { ManagedProcess } from '@platform/testing';
import { sleep } from './stack';

/** Every descendant of `pid` (children first-level first), read from `ps`. */
function descendants(pid: number): number[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of table) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * kill -9 of the service itself. A ManagedProcess is the `tsx` launcher, which runs the service in a
 * child Node.js process and relays catchable signals; SIGKILL cannot be relayed, so killing only the
 * launcher leaves the service running. This kills the service process(es) first, then the launcher.
 */
export async function killHard(managed: ManagedProcess): Promise<void> {
  const launcher = managed.pid();
  if (!launcher) return;
  const service = descendants(launcher);
  for (const pid of service.reverse()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await managed.signal('SIGKILL');
  const deadline = Date.now() + 10000;
  while (service.some(alive)) {
    if (Date.now() > deadline) throw new Error(`service processes ${service.filter(alive).join(', ')} survived SIGKILL`);
    await sleep(50);
  }
}
