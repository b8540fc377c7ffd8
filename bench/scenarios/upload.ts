import { mkdir, rm } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { reportLosses } from '../harness/claimant';
import type { BenchContext, Scenario } from '../harness/context';
import type { TransferResult } from '../harness/load-protocol';
import { cpuLedger, machineCpuLedger, rssSampler, serverRoots } from '../harness/process-tree';
import { alternate, medianOf } from '../harness/rounds';
import { round } from '../harness/stats';
import { settleStorage } from '../harness/storage';

/**
 * upload.throughput_ratio_vs_disk and upload.rss_growth_mb: 25 MiB attachments (PDF by their bytes,
 * each unique), `uploadConcurrency` at once, streamed by the load generator to the claims service;
 * against the same bytes written with `fs` write streams, as many at once, into the service's data
 * directory (same file system). Memory: the claims process's RSS sampled every 25 ms during the
 * measured rounds, growth over its level after the warm-up. The service fsyncs each attachment before it
 * answers, so the baseline fsyncs each file too (same durability), and it keeps its files until the
 * scenario ends, as the service keeps its attachments. Before every round of either side the storage
 * is settled (settleStorage), so no round starts while the previous one's writes are still draining.
 */
export const uploadScenario: Scenario = {
  name: 'upload',
  keys: ['rss_growth_mb', 'throughput_ratio_vs_disk'],
  async run(context: BenchContext) {
    const { params, load, stack } = context;
    const claims = await reportLosses(stack.claims.url, params.uploadConcurrency, 4);
    const targets = claims.map((claim) => ({ path: `/api/claims/public/claims/${claim.claim_id}/attachments`, token: claim.access_token }));
    const upload = (count: number) =>
      load.run({
        kind: 'upload',
        url: stack.claims.url,
        targets,
        count,
        concurrency: params.uploadConcurrency,
        sizeBytes: params.uploadBytes,
      });
    const baselineDir = path.join(stack.env.DATA_DIR, 'bench-disk-baseline');
    await mkdir(baselineDir, { recursive: true });
    const disk = (count: number) =>
      load.run({
        kind: 'disk',
        dir: baselineDir,
        count,
        concurrency: params.uploadConcurrency,
        sizeBytes: params.uploadBytes,
        fsync: true,
      });
    const warm = await upload(params.uploadConcurrency);
    if (!warm.statuses['201']) throw new Error(`attachment upload answered ${JSON.stringify(warm.statuses)}`);
    await disk(params.uploadConcurrency);
    const pid = stack.claims.pid();
    if (!pid) throw new Error('claims process has no pid');
    const drainMs: number[] = [];
    let notQuiet = 0;
    const settled = async <T>(side: () => Promise<T>) => {
      const settling = await settleStorage(baselineDir, { pauseMs: params.storagePauseMs });
      drainMs.push(settling.drain_ms);
      if (!settling.quiet) notQuiet++;
      return side();
    };
    const serviceCpu = cpuLedger({ claims: () => [pid], postgres: () => serverRoots('postgres'), load: () => [load.pid] });
    const diskCpu = cpuLedger({ load: () => [load.pid] });
    const [serviceMachine, diskMachine] = [machineCpuLedger(), machineCpuLedger()];
    const measured = (
      ledger: ReturnType<typeof cpuLedger>,
      machine: ReturnType<typeof machineCpuLedger>,
      side: () => Promise<TransferResult>,
    ) => settled(() => machine.measure(() => ledger.measure(side)));
    const memory = rssSampler(pid);
    const rounds = await alternate<TransferResult>(params.rounds, {
      service: () => measured(serviceCpu, serviceMachine, () => upload(params.uploadCount)),
      disk: () => measured(diskCpu, diskMachine, () => disk(params.uploadCount)),
    });
    const rss = memory.stop();
    await rm(baselineDir, { recursive: true, force: true });
    const statuses: Record<string, number> = {};
    for (const r of rounds.service) for (const [status, n] of Object.entries(r.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
    const failed = Object.entries(statuses).filter(([status]) => status !== '201');
    if (failed.length > 0) throw new Error(`uploads answered ${JSON.stringify(statuses)}`);
    const serviceMiBs = medianOf(rounds.service, (r) => r.mib_per_s);
    const diskMiBs = medianOf(rounds.disk, (r) => r.mib_per_s);
    const mib = (side: TransferResult[]) => side.reduce((sum, r) => sum + r.bytes, 0) / 1048576;
    const seconds = (side: TransferResult[]) => side.reduce((sum, r) => sum + r.seconds, 0);
    const [uploadedMib, writtenMib] = [mib(rounds.service), mib(rounds.disk)];
    const serviceMachineMs = serviceMachine.msPerOperation(uploadedMib).machine;
    const diskMachineMs = diskMachine.msPerOperation(writtenMib).machine;
    return {
      rss_growth_mb: round(rss.growth_mb, 1),
      throughput_ratio_vs_disk: round(serviceMiBs / diskMiBs),
      service_mib_per_s: round(serviceMiBs, 1),
      disk_mib_per_s: round(diskMiBs, 1),
      file_mib: params.uploadBytes / 1048576,
      concurrency: params.uploadConcurrency,
      uploads_per_round: params.uploadCount,
      rss_baseline_mb: round(rss.baseline_mb, 1),
      rss_peak_mb: round(rss.peak_mb, 1),
      service_rounds_mib_per_s: rounds.service.map((r) => round(r.mib_per_s, 1)),
      disk_rounds_mib_per_s: rounds.disk.map((r) => round(r.mib_per_s, 1)),
      storage_drain_ms_before_rounds: drainMs,
      storage_not_quiet_before_rounds: notQuiet,
      // What a MiB costs the shared cores on each side, by process and for the whole machine (the kernel's
      // writeback included); the machine figures' quotient is the ratio if both sides were bound by CPU alone.
      cpu_ms_per_mib_uploaded: serviceCpu.msPerOperation(uploadedMib),
      cpu_ms_per_mib_written: diskCpu.msPerOperation(writtenMib),
      machine_cpu_ms_per_mib_uploaded: serviceMachineMs,
      machine_cpu_ms_per_mib_written: diskMachineMs,
      cpu_ratio_vs_disk: round(diskMachineMs / serviceMachineMs),
      // Of the cores' time while a side ran: how busy the machine was (1 = both cores all the time).
      machine_busy_uploading: round((serviceMachineMs * uploadedMib) / 1000 / seconds(rounds.service) / cpus().length),
      machine_busy_writing: round((diskMachineMs * writtenMib) / 1000 / seconds(rounds.disk) / cpus().length),
    };
  },
};
