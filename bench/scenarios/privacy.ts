import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { bearer, createEmptyDatabase, freePort, managedProcess, type ManagedProcess } from '@platform/testing';
import {
  fnolBodyOfOwnClaimant,
  ownClaimantIntakeRequests,
  progressUpdateBody,
  reportLosses,
  statusRequests,
  type CreatedClaim,
} from '../harness/claimant';
import type { BenchContext, Scenario } from '../harness/context';
import type { CannonResult, RequestSpec } from '../harness/load-protocol';
import { cpuLedger, processTree, serverRoots, waitForQuietMachine } from '../harness/process-tree';
import { alternate, medianBlockRatio, medianOf } from '../harness/rounds';
import { round } from '../harness/stats';

/** Distinct claimants the intake load cycles over: past them a claimant returns (matched, key cached). */
const INTAKE_CLAIMANTS = 5000;
/**
 * A full run's rounds: more of them than the other scenarios' (the sides differ by a few percent, a shared 2-core
 * host drifts by ±15% from one round to the next). Each starts on a quiet machine, then has its own unmeasured
 * second of load: measured, a round right after the other side's ran about 20% slower than one right after its
 * own side's, as the other side's acknowledgements (a few hundred queued by a round) and events were still
 * being worked off on the same cores.
 */
const FULL_ROUNDS = 8;
const FULL_ROUND_SEC = 4;
const ROUND_WARMUP_SEC = 1;
/** `--quick` (CI's smoke) waits for a quiet machine at most this long per round: other CI work may keep it busy. */
const QUICK_QUIET_TIMEOUT_MS = 15000;

interface ClaimsSide {
  process: ManagedProcess;
  drop(): Promise<void>;
}

/** A claims process from the bench's build on a fresh database and data directory, encryption on or off. */
async function startClaimsSide(context: BenchContext, name: string, encryption: boolean): Promise<ClaimsSide> {
  const database = await createEmptyDatabase(`bench_privacy_${encryption ? 'on' : 'off'}`);
  const dataDir = mkdtempSync(path.join(context.workDir, `${name}-`));
  const claims = managedProcess(
    name,
    context.build.claims,
    { ...context.stack.env, ...context.processEnv, DATABASE_URL: database.url, DATA_DIR: dataDir, PRIVACY_ENCRYPTION: String(encryption) },
    await freePort(),
  );
  const drop = async () => {
    await claims.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await claims.start();
  } catch (error) {
    await drop();
    throw error;
  }
  context.processes[name] = processTree(claims.pid()!);
  return { process: claims, drop };
}

/** Claims of their own claimants on `url`, each with one progress update, so a status read opens its texts. */
async function claimsWithAnUpdate(url: string, count: number, authorization: string): Promise<CreatedClaim[]> {
  const claims = await reportLosses(url, count, 8, (index) => fnolBodyOfOwnClaimant(INTAKE_CLAIMANTS + index));
  const update = progressUpdateBody();
  for (const claim of claims) {
    const response = await fetch(`${url}/api/claims/claims/${claim.claim_id}/status-updates`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: update,
    });
    if (response.status !== 201) throw new Error(`status update answered ${response.status}: ${await response.text()}`);
  }
  return claims;
}

/**
 * privacy.intake_ratio_encrypted, privacy.status_ratio_encrypted (issue 37): what sealing personal fields
 * costs. Two claims processes from the same build, each on a fresh database, one with PRIVACY_ENCRYPTION on
 * (a data key per new claimant, wrapped by the local KEK; name, contacts, description, police report and
 * update texts sealed) and one with it off; each side's saturation throughput of intakes (claimants of
 * their own) and of claimant status reads (claims with one update, whose texts the read opens), in alternating
 * rounds. Each ratio is encrypted ÷ unencrypted: the median over blocks of two rounds (medianBlockRatio; the ratio
 * of the two sides' median throughputs is reported beside it, and the CPU per request).
 */
export const privacyScenario: Scenario = {
  name: 'privacy',
  keys: ['intake_ratio_encrypted', 'status_ratio_encrypted'],
  async run(context: BenchContext) {
    const { params, load } = context;
    const sides: Record<'encrypted' | 'plain', ClaimsSide> = {} as never;
    try {
      sides.encrypted = await startClaimsSide(context, 'claims-encrypted', true);
      sides.plain = await startClaimsSide(context, 'claims-plain', false);
      const postgres = serverRoots('postgres');
      const ledger = (side: ClaimsSide) =>
        cpuLedger({ claims: () => [side.process.pid()], postgres: () => postgres, load: () => [load.pid] });
      const ledgers = { encrypted: ledger(sides.encrypted), plain: ledger(sides.plain) };

      /** Warm-up, then alternating rounds of `requestsOf(side)` at `connections`; the medians and CPU per 2xx. */
      const compare = async (label: string, connections: number, requestsOf: (side: 'encrypted' | 'plain') => RequestSpec[]) => {
        const saturate = (side: 'encrypted' | 'plain', durationSec: number) =>
          load.run({ kind: 'cannon', url: sides[side].process.url, connections, durationSec, requests: requestsOf(side) });
        await saturate('encrypted', params.warmupSec);
        await saturate('plain', params.warmupSec);
        const [roundCount, roundSec] = params.mode === 'full' ? [FULL_ROUNDS, FULL_ROUND_SEC] : [params.rounds, params.roundSec];
        let roundsNotQuiet = 0;
        const measuredRound = async (side: 'encrypted' | 'plain') => {
          const settled = await waitForQuietMachine({ timeoutMs: params.mode === 'full' ? 60000 : QUICK_QUIET_TIMEOUT_MS });
          if (!settled.quiet) roundsNotQuiet += 1;
          if (params.mode === 'full') await saturate(side, ROUND_WARMUP_SEC);
          return ledgers[side].measure(() => saturate(side, roundSec));
        };
        const rounds = await alternate<CannonResult>(roundCount, {
          encrypted: () => measuredRound('encrypted'),
          plain: () => measuredRound('plain'),
        });
        const failed = [...rounds.encrypted, ...rounds.plain].reduce((sum, r) => sum + r.non2xx + r.errors, 0);
        if (failed > 0) throw new Error(`${label}: ${failed} requests failed (non-2xx or errors)`);
        const rps = { encrypted: medianOf(rounds.encrypted, (r) => r.rps), plain: medianOf(rounds.plain, (r) => r.rps) };
        const cpu = (side: 'encrypted' | 'plain') => ledgers[side].msPerOperation(rounds[side].reduce((sum, r) => sum + r.ok, 0));
        const cpuMs = { encrypted: cpu('encrypted'), plain: cpu('plain') };
        return {
          // encrypted ÷ plain in each block of two rounds (E P P E), the median of those
          ratio: round(medianBlockRatio(rounds.encrypted, rounds.plain, (r) => r.rps)),
          ratio_of_medians: round(rps.encrypted / rps.plain),
          encrypted_rps: round(rps.encrypted, 1),
          plain_rps: round(rps.plain, 1),
          encrypted_rounds_rps: rounds.encrypted.map((r) => round(r.rps, 1)),
          plain_rounds_rps: rounds.plain.map((r) => round(r.rps, 1)),
          encrypted_p99_ms: medianOf(rounds.encrypted, (r) => r.latency_p99_ms),
          plain_p99_ms: medianOf(rounds.plain, (r) => r.latency_p99_ms),
          encrypted_cpu_ms: cpuMs.encrypted,
          plain_cpu_ms: cpuMs.plain,
          // the ratio if both sides were bound by CPU alone: steadier than throughput on a busy host
          cpu_ratio: round(cpuMs.plain.total / cpuMs.encrypted.total),
          // rounds that began before the machine was quiet (waited in vain): a busy host, the figure less sure
          rounds_not_quiet: roundsNotQuiet,
        };
      };

      const intakes = ownClaimantIntakeRequests(INTAKE_CLAIMANTS);
      const intake = await compare('intake', params.intakeConcurrency, () => intakes);
      context.log(`  intake: encrypted ${intake.encrypted_rps}/s, plain ${intake.plain_rps}/s`);

      const staff = await bearer('claims:read claims:write', 'bench-privacy');
      const readCount = params.mode === 'quick' ? 50 : 300;
      const reads = {
        encrypted: statusRequests(await claimsWithAnUpdate(sides.encrypted.process.url, readCount, staff)),
        plain: statusRequests(await claimsWithAnUpdate(sides.plain.process.url, readCount, staff)),
      };
      const status = await compare('status read', params.connections, (side) => reads[side]);
      context.log(`  status read: encrypted ${status.encrypted_rps}/s, plain ${status.plain_rps}/s`);
      return {
        intake_ratio_encrypted: intake.ratio,
        status_ratio_encrypted: status.ratio,
        intake,
        status,
        intake_concurrency: params.intakeConcurrency,
        intake_claimants: INTAKE_CLAIMANTS,
        status_connections: params.connections,
        claims_read: readCount,
      };
    } catch (error) {
      // what each side's claims process logged (warnings and errors): the first place to look
      const logs = Object.values(sides).map((side) => `${side.process.name}: ${side.process.output().slice(-1500)}`);
      throw new Error([(error as Error).message, ...logs].join('\n'));
    } finally {
      await Promise.all(Object.values(sides).map((side) => side.drop()));
    }
  },
};
