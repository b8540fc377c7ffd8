import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { round } from './stats';

/** pid and every descendant (tsx runs the service as a child of its own CLI process). */
export function processTree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    try {
      const children = readFileSync(`/proc/${all[i]}/task/${all[i]}/children`, 'utf8').trim();
      if (children) all.push(...children.split(/\s+/).map(Number));
    } catch {
      // the process is gone
    }
  }
  return all;
}

function rssKb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Resident memory of the process that does the work (the largest of the tree: the node running the service), MiB. */
export function serviceRssMb(pid: number): number {
  return Math.max(...processTree(pid).map(rssKb)) / 1024;
}

/** Samples the RSS of a process every `intervalMs` until stopped; reports the baseline, the peak and the growth. */
export function rssSampler(pid: number, intervalMs = 25) {
  const baseline = serviceRssMb(pid);
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, serviceRssMb(pid));
  }, intervalMs);
  return {
    stop(): { baseline_mb: number; peak_mb: number; growth_mb: number } {
      clearInterval(timer);
      peak = Math.max(peak, serviceRssMb(pid));
      return { baseline_mb: baseline, peak_mb: peak, growth_mb: Math.max(0, peak - baseline) };
    },
  };
}

/** The fields of `/proc/<pid>/stat` after the command name (field 3, the state, first); undefined when the process is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function cpuTicks(pid: number): number {
  const fields = statFields(pid);
  if (!fields) return 0;
  // utime, stime, and cutime, cstime: the children it has reaped (fields 14–17 of proc(5)), so a
  // PostgreSQL backend that exits between two readings moves into its postmaster's figure, not out of the sum
  return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
}

/** CPU seconds (user + system) the process tree has used so far: robust to other work on the machine. */
export function cpuSeconds(pid: number): number {
  return processTree(pid).reduce((ticks, member) => ticks + cpuTicks(member), 0) / 100; // USER_HZ
}

function commandName(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * The roots of the processes on this machine named `name` (`postgres`: each server's postmaster, whose tree
 * holds its backends; `beam.smp`: a RabbitMQ node). Empty when the server runs on another machine.
 */
export function serverRoots(name: 'postgres' | 'beam.smp'): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      const parent = statFields(pid)?.[1]; // ppid
      return commandName(pid) === name && parent !== undefined && commandName(Number(parent)) !== name;
    });
}

/** CPU seconds (user, nice, system, irq, softirq, steal) all cores of this machine have spent so far, kernel threads included. */
export function machineCpuSeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return (user + nice + system + irq + softirq + steal) / 100; // USER_HZ
}

/** CPU seconds per named source, summed over the measured work, and per operation. */
function secondsLedger(sources: Record<string, () => number>) {
  const seconds: Record<string, number> = Object.fromEntries(Object.keys(sources).map((name) => [name, 0]));
  const read = () => Object.fromEntries(Object.entries(sources).map(([name, source]) => [name, source()]));
  return {
    async measure<T>(work: () => Promise<T>): Promise<T> {
      const before = read();
      const result = await work();
      const after = read();
      for (const name of Object.keys(seconds)) seconds[name] += after[name] - before[name];
      return result;
    },
    /** Milliseconds of CPU per operation by source, and their total. */
    msPerOperation(operations: number): Record<string, number> {
      const perOperation = Object.fromEntries(
        Object.entries(seconds).map(([name, s]) => [name, round((1000 * s) / Math.max(1, operations))]),
      );
      return { ...perOperation, total: round(Object.values(perOperation).reduce((sum, ms) => sum + ms, 0)) };
    },
  };
}

/**
 * CPU per operation of every process an operation involves, summed over the measured rounds: where an
 * operation's cost goes on the shared cores (the service, PostgreSQL, RabbitMQ, the load generator), so a
 * ratio can be read against what each side costs in CPU and not only in time.
 */
export function cpuLedger(processes: Record<string, () => (number | undefined)[]>) {
  return secondsLedger(
    Object.fromEntries(
      Object.entries(processes).map(([name, roots]) => [
        name,
        () => roots().reduce<number>((sum, pid) => sum + (pid === undefined ? 0 : cpuSeconds(pid)), 0),
      ]),
    ),
  );
}

/** The same for the whole machine: what no process's figure holds (the kernel's writeback threads, interrupts) included. */
export function machineCpuLedger() {
  return secondsLedger({ machine: machineCpuSeconds });
}

export interface QuietResult {
  waited_ms: number;
  /** False when the machine never stayed below `busyBelow` for `quietMs` before `timeoutMs` (other work on it). */
  quiet: boolean;
}

/**
 * Waits until the machine's cores stay below `busyBelow` (a fraction of all cores) for `quietMs`: what a
 * round's load left queued behind it (deliveries, the outbox, the evidence service's consumer) is then done,
 * and does not take the cores from the next round, of either side.
 */
export async function waitForQuietMachine({ busyBelow = 0.2, quietMs = 1000, timeoutMs = 60000 } = {}): Promise<QuietResult> {
  const cores = availableParallelism();
  const started = Date.now();
  const windowMs = 250;
  let quietSince: number | undefined;
  let before = machineCpuSeconds();
  while (Date.now() - started < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const after = machineCpuSeconds();
    const busy = (after - before) / ((windowMs / 1000) * cores);
    before = after;
    const now = Date.now();
    quietSince = busy < busyBelow ? (quietSince ?? now - windowMs) : undefined;
    if (quietSince !== undefined && now - quietSince >= quietMs) return { waited_ms: now - started, quiet: true };
  }
  return { waited_ms: Date.now() - started, quiet: false };
}
