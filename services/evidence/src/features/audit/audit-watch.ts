import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import type { Knex } from '@platform/db';
import { startPeriodicTask } from '@platform/http';
import { consistencyProof, consistencyProofRanges, nodesFor, verifyConsistency } from '@platform/merkle';
import { createEvent, enqueueEvent } from '@platform/messaging';
import { chainTimestamp } from '../../shared/audit-chain';
import { readTreeNodes } from '../../shared/audit-tree';
import { EVENT_SOURCE } from '../../shared/record-change';
import { auditBreakDetected, type AuditBreak } from './audit-events';
import { auditStore } from './audit-store';
import { verifyAuditChain } from './audit-verify';
import type { CheckpointSigner } from './checkpoint-signer';

/** Held (transaction-scoped) by the one replica watching the log at a time. */
const AUDIT_WATCH_LOCK = 1635083370;

interface WatchState {
  verified_size: number;
  verified_root: Buffer | null;
  break_raised_at: string | null;
}

export interface WatchOutcome {
  /** What the pass did: skipped (another replica holds the lock, or a break was already raised), nothing new, verified up to a size, or found a break. */
  result: 'locked' | 'already_broken' | 'up_to_date' | 'verified' | 'break';
  verifiedSize: number;
  break?: AuditBreak;
}

async function readState(trx: Knex): Promise<WatchState> {
  await trx.raw('INSERT INTO audit_watch (id) VALUES (true) ON CONFLICT (id) DO NOTHING');
  const row = await trx('audit_watch').where({ id: true }).first('verified_size', 'verified_root', 'break_raised_at');
  return { ...row, verified_size: Number(row.verified_size) };
}

/** Whether the stored tree of `size` records extends the one verified before (RFC 9162 consistency, O(log n) node reads). */
async function extendsVerified(trx: Knex, state: WatchState, size: number, root: Buffer): Promise<boolean> {
  if (state.verified_size === 0 || !state.verified_root) return true;
  try {
    const nodeAt = await readTreeNodes(trx, nodesFor(consistencyProofRanges(state.verified_size, size)));
    return verifyConsistency(state.verified_size, size, consistencyProof(state.verified_size, size, nodeAt), state.verified_root, root);
  } catch {
    return false; // subtrees missing: the tree no longer holds what was verified
  }
}

/**
 * One pass of the background verifier: from the last verified tree head to the newest signed one, it checks
 * the new head's signature, that the tree still extends the verified one (a consistency proof, so history
 * before it is never read again), and the records appended since (chain, leaves, checkpoints). The first
 * break is stored, announced (evidence.audit_break_detected) and counted once, in one transaction.
 */
export async function watchAuditLog(db: Knex, signer: CheckpointSigner, exchange: string, pageSize: number): Promise<WatchOutcome> {
  return db.transaction(async (trx) => {
    const { rows } = await trx.raw('SELECT pg_try_advisory_xact_lock(?) AS locked', [AUDIT_WATCH_LOCK]);
    const state = await readState(trx);
    if (!rows[0].locked) return { result: 'locked', verifiedSize: state.verified_size };
    if (state.break_raised_at) return { result: 'already_broken', verifiedSize: state.verified_size };
    const note = await auditStore(trx).latestTreeHead();
    const head = note === undefined ? undefined : signer.openTreeHead(note);
    const size = head?.size ?? Number(note?.split('\n')[1] ?? 0);
    if (note === undefined || size <= state.verified_size) return { result: 'up_to_date', verifiedSize: state.verified_size };

    let found: Pick<AuditBreak, 'seq' | 'reason'> | undefined;
    if (!head) found = { seq: size, reason: 'bad_signature' };
    else if (!(await extendsVerified(trx, state, head.size, head.rootHash)))
      found = { seq: state.verified_size, reason: 'history_rewritten' };
    else {
      const report = await verifyAuditChain(trx, signer, { fromSeq: state.verified_size + 1, toSeq: head.size, pageSize });
      if (report.first_invalid) found = report.first_invalid;
    }
    if (!found) {
      await trx('audit_watch').where({ id: true }).update({ verified_size: head!.size, verified_root: head!.rootHash });
      return { result: 'verified', verifiedSize: head!.size };
    }
    const detected: AuditBreak = { ...found, verified_size: state.verified_size, tree_size: size, detected_at: chainTimestamp(new Date()) };
    await trx('audit_watch')
      .where({ id: true })
      .update({ break_seq: detected.seq, break_reason: detected.reason, break_raised_at: detected.detected_at });
    await enqueueEvent(
      trx,
      exchange,
      createEvent({
        source: EVENT_SOURCE,
        type: auditBreakDetected.type,
        subject: String(detected.seq),
        dataschema: auditBreakDetected.schema.$id,
        data: detected,
      }),
    );
    return { result: 'break', verifiedSize: state.verified_size, break: detected };
  });
}

export interface AuditWatcherOptions {
  db: Knex;
  signer: CheckpointSigner;
  exchange: string;
  logger: Logger;
  metrics: Registry;
  intervalMs: number;
  pageSize: number;
}

/** Runs watchAuditLog now and every `intervalMs` (one pass at a time); a break is logged at error level and counted once. */
export function startAuditWatcher(options: AuditWatcherOptions): { pass(): Promise<WatchOutcome | undefined>; stop(): Promise<void> } {
  const { db, signer, exchange, logger, metrics, intervalMs, pageSize } = options;
  const breaks = new Counter({
    name: 'evidence_audit_breaks_detected_total',
    help: 'Breaks of the audit log found by the background verifier (each raised once)',
    registers: [metrics],
  });
  let last: WatchOutcome | undefined;
  const task = startPeriodicTask({
    name: 'audit-watch',
    intervalMs,
    logger,
    metrics,
    async work() {
      last = undefined;
      last = await watchAuditLog(db, signer, exchange, pageSize);
      if (last.break) {
        breaks.inc();
        logger.error({ audit_break: last.break }, 'audit log break detected');
      }
    },
  });
  return {
    /** Runs a pass now, or joins the one in flight; its outcome, or undefined when it failed (logged). */
    pass: () => task.runNow().then(() => last),
    stop: task.stop,
  };
}
