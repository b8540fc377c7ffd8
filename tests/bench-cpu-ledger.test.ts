import { spawnSync } from 'node:child_process';
import { adminUrl } from '@platform/testing';
import { pgClient } from '../bench/harness/workspace-modules';
import { cpuLedger, machineCpuLedger, processTree, serverRoots } from '../bench/harness/process-tree';

/**
 * Busy until this process has used `ms` more of CPU — CPU, not wall time, so that a loaded machine (CI runs
 * test files side by side on two cores) cannot make the work smaller than the test expects. It uses nothing
 * but `process`, so its source also runs as a child process of its own.
 */
function spin(ms: number): void {
  const start = process.cpuUsage();
  for (;;) {
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= ms) return;
  }
}

describe("the benchmark's CPU ledger", () => {
  it('counts the CPU of each named process per operation, and their total', async () => {
    const ledger = cpuLedger({ bench: () => [process.pid], none: () => [undefined] });
    await ledger.measure(async () => spin(400));
    const perOperation = ledger.msPerOperation(4);
    expect(perOperation.bench).toBeGreaterThanOrEqual(60); // ~100 ms of CPU per operation, ticks of 10 ms
    expect(perOperation.bench).toBeLessThan(200);
    expect(perOperation.none).toBe(0);
    expect(perOperation.total).toBeCloseTo(perOperation.bench, 3);
  });

  it('keeps the CPU of a child that exited during the measurement (its parent reaped it)', async () => {
    const ledger = cpuLedger({ bench: () => [process.pid] });
    const child = await ledger.measure(async () => spawnSync(process.execPath, ['-e', `${spin}; spin(500);`]));
    expect(child.status).toBe(0);
    // the child's ~500 ms of CPU, which /proc shows only in this process's reaped-children time once it exited
    expect(ledger.msPerOperation(1).bench).toBeGreaterThanOrEqual(400);
  });

  it("counts the whole machine's CPU, at least what this process used meanwhile", async () => {
    const machine = machineCpuLedger();
    const ledger = cpuLedger({ bench: () => [process.pid] });
    await machine.measure(() => ledger.measure(async () => spin(300)));
    expect(machine.msPerOperation(1).machine).toBeGreaterThanOrEqual(ledger.msPerOperation(1).bench - 20); // ticks of 10 ms, read at two moments
    expect(machine.msPerOperation(1).machine).toBeGreaterThanOrEqual(200);
  });

  it("finds the local PostgreSQL server's postmaster, whose tree holds a connection's backend", async () => {
    const client = pgClient(adminUrl());
    await client.connect();
    try {
      const { rows } = await client.query('SELECT pg_backend_pid() AS pid');
      const backend = Number(rows[0].pid);
      const roots = serverRoots('postgres');
      expect(roots.some((root) => processTree(root).includes(backend))).toBe(true);
    } finally {
      await client.end();
    }
  });
});
