import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import type { Knex } from '@platform/db';
import { createEvent, enqueueEvent } from '@platform/messaging';
import { startPeriodicTask } from '@platform/http';
import { auditSignals, chainHead, lockAuditChain, measureAuditChain } from '../../shared/audit-append';
import { chainTimestamp } from '../../shared/audit-chain';
import { auditTreeRoot, catchUpAuditTree } from '../../shared/audit-tree';
import { EVENT_SOURCE } from '../../shared/record-change';
import { auditCheckpoint } from './audit-events';
import type { AuditCheckpoint } from './audit-schemas';
import { auditStore } from './audit-store';
import type { CheckpointSigner } from './checkpoint-signer';

const CHECKPOINT_LOCK_TIMEOUT_MS = 3000;

/**
 * Signs the current head of the chain and of its Merkle tree (a C2SP checkpoint note), unless it is already signed. Holds the chain lock, so the head
 * cannot move meanwhile, and publishes `evidence.audit_checkpoint` through the outbox.
 */
export async function takeCheckpoint(db: Knex, signer: CheckpointSigner, exchange: string): Promise<AuditCheckpoint | undefined> {
  return db.transaction(async (trx) => {
    // Background work never queues behind a stuck writer for long: the next trigger retries.
    await trx.raw(`SET LOCAL lock_timeout = '${CHECKPOINT_LOCK_TIMEOUT_MS}ms'`);
    await lockAuditChain(trx);
    const head = await chainHead(trx);
    const store = auditStore(trx);
    const last = await store.latestCheckpoint();
    if (!head || (last && last.seq >= head.seq)) return undefined;
    await catchUpAuditTree(trx, head.seq);
    const checkpoint: AuditCheckpoint = {
      seq: head.seq,
      hash: head.hash,
      signed_at: chainTimestamp(new Date()),
      signature: signer.sign(head.seq, head.hash),
      key_id: signer.keyId,
      note: signer.signTreeHead(head.seq, await auditTreeRoot(trx, head.seq)),
    };
    await store.insertCheckpoint(checkpoint);
    await enqueueEvent(
      trx,
      exchange,
      createEvent({
        source: EVENT_SOURCE,
        type: auditCheckpoint.type,
        subject: String(checkpoint.seq),
        dataschema: auditCheckpoint.schema.$id,
        data: { ...checkpoint },
      }),
    );
    return checkpoint;
  });
}

/** Signs the head unless a checkpoint covers record `seq` already (a binder's records, say). */
export async function checkpointCovering(db: Knex, signer: CheckpointSigner, exchange: string, seq: number): Promise<void> {
  const latest = await auditStore(db).latestCheckpoint();
  if (!latest || latest.seq < seq) await takeCheckpoint(db, signer, exchange);
}

export interface CheckpointerOptions {
  db: Knex;
  signer: CheckpointSigner;
  exchange: string;
  logger: Logger;
  metrics: Registry;
  /** Checkpoint once this many records follow the last checkpoint. */
  every: number;
  /** …and this long after a record is appended, covering every record appended meanwhile (one signature per batch). */
  delayMs: number;
  /** …and on this period whenever there are unsigned records (those appended by other replicas too). */
  intervalMs: number;
}

/**
 * Background checkpointing: `delayMs` after a same-process append (so a quiet log is signed within about a
 * second, and a busy one once per delay, not once per record), at once after `every` committed records,
 * and every `intervalMs` when the head is unsigned. Runs are serialised (a trigger during one runs another
 * after it); a failed run (database down) is retried by the next trigger. stop() takes a last checkpoint of what is unsigned.
 */
export async function startCheckpointer(options: CheckpointerOptions): Promise<{ stop(): Promise<void> }> {
  const { db, signer, exchange, logger, metrics, every, delayMs, intervalMs } = options;
  const checkpoints = new Counter({
    name: 'evidence_audit_checkpoints_total',
    help: 'Signed audit checkpoints taken',
    registers: [metrics],
  });
  measureAuditChain(db, metrics);
  const store = auditStore(db);
  let signedSeq = (await store.latestCheckpoint())?.seq ?? 0;
  const checkpoint = async () => {
    const taken = await takeCheckpoint(db, signer, exchange);
    if (taken) {
      signedSeq = Math.max(signedSeq, taken.seq);
      checkpoints.inc();
      logger.info({ seq: taken.seq, hash: taken.hash }, 'audit checkpoint signed');
    } else {
      signedSeq = Math.max(signedSeq, (await store.latestCheckpoint())?.seq ?? 0); // another instance signed it
    }
  };
  const task = startPeriodicTask({ name: 'audit-checkpoints', work: checkpoint, intervalMs, logger, metrics, runAtStart: false });

  let stopped = false;
  let delayed: NodeJS.Timeout | undefined;
  const onAppended = (seq: number) => {
    if (stopped) return;
    if (seq - signedSeq >= every) void task.wake();
    else if (!delayed) {
      delayed = setTimeout(() => {
        delayed = undefined;
        void task.wake();
      }, delayMs);
      delayed.unref();
    }
  };
  auditSignals.on('appended', onAppended);

  return {
    async stop() {
      stopped = true;
      auditSignals.off('appended', onAppended);
      clearTimeout(delayed);
      await task.stop();
      await checkpoint().catch((error: unknown) => logger.warn({ err: error }, 'last audit checkpoint failed; the next start signs it'));
    },
  };
}
