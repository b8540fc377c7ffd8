import { readFileSync } from 'node:fs';

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

/** CPU seconds (user + system) the process tree has used so far: robust to other work on the machine. */
export function cpuSeconds(pid: number): number {
  let ticks = 0;
  for (const member of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${member}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of proc(5))
    } catch {
      // the process is gone
    }
  }
  return ticks / 100; // USER_HZ
}

/** CPU the process used while `work` ran. */
export async function measureCpu<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; cpu_s: number }> {
  const before = cpuSeconds(pid);
  const result = await work();
  return { result, cpu_s: cpuSeconds(pid) - before };
}
