import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import type { Knex } from '@platform/db';
import { createEvent, enqueueEvent } from '@platform/messaging';
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
 * and every `intervalMs` when the head is unsigned. Runs are serialised; a failed run (database down)
 * is retried by the next trigger. stop() takes a last checkpoint of what is unsigned.
 */
export async function startCheckpointer(options: CheckpointerOptions): Promise<{ stop(): Promise<void> }> {
  const { db, signer, exchange, logger, every, delayMs, intervalMs } = options;
  const taken = new Counter({
    name: 'evidence_audit_checkpoints_total',
    help: 'Signed audit checkpoints taken',
    registers: [options.metrics],
  });
  measureAuditChain(db, options.metrics);
  const store = auditStore(db);
  let signedSeq = (await store.latestCheckpoint())?.seq ?? 0;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          const checkpoint = await takeCheckpoint(db, signer, exchange);
          if (checkpoint) {
            signedSeq = Math.max(signedSeq, checkpoint.seq);
            taken.inc();
            logger.info({ seq: checkpoint.seq, hash: checkpoint.hash }, 'audit checkpoint signed');
          } else {
            signedSeq = Math.max(signedSeq, (await store.latestCheckpoint())?.seq ?? 0); // another instance signed it
          }
        } catch (error) {
          logger.warn({ err: error }, 'audit checkpoint failed; will retry');
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  let delayed: NodeJS.Timeout | undefined;
  const onAppended = (seq: number) => {
    if (stopped) return;
    if (seq - signedSeq >= every) void run();
    else if (!delayed) {
      delayed = setTimeout(() => {
        delayed = undefined;
        void run();
      }, delayMs);
      delayed.unref();
    }
  };
  auditSignals.on('appended', onAppended);
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      auditSignals.off('appended', onAppended);
      clearInterval(timer);
      clearTimeout(delayed);
      await running;
      await run();
    },
  };
}
