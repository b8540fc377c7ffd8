import type { KeyObject } from 'node:crypto';
import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import type { Knex } from '@platform/db';
import { parseCheckpoint, parseVerifierKey, verifyConsistency, verifyNote, type Checkpoint } from '@platform/merkle';
import { cosign, findCosignature } from './cosignature';
import type { LogClient } from './log-client';
import { witnessStore, type Refusal, type RefusalReason } from './witness-store';

export interface WitnessOptions {
  /** The witness's name in its signature lines (its key name). */
  name: string;
  privateKey: KeyObject;
  /** The log's C2SP verifier key `<origin>+<key hash>+<base64 key>`: the only key its checkpoints are trusted under. */
  logVerifierKey: string;
  log: LogClient;
  /** The witness's own database (tables of WITNESS_TABLES_SQL). */
  db: Knex;
  logger: Logger;
  metrics: Registry;
  /** Runs in the transaction that stores a new refusal (e.g. to publish an alert through an outbox). */
  onRefused?: (trx: Knex.Transaction, refusal: Refusal) => Promise<void>;
}

export type WitnessOutcome =
  | { outcome: 'cosigned'; size: number }
  | { outcome: 'unchanged'; size: number }
  | { outcome: 'refused'; reason: RefusalReason; size: number }
  | { outcome: 'rejected'; why: string };

/**
 * One witness over one log (c2sp.org/tlog-witness, polling): fetch the latest checkpoint, check the log's
 * signature, check that it extends the last checkpoint this witness cosigned (same size: same root;
 * larger: an RFC 9162 consistency proof; smaller: never), and only then cosign and hand the cosignature to
 * the log. An inconsistent checkpoint is refused for good: stored with both notes and the proof, counted,
 * announced through `onRefused`, and reported to the log. The first checkpoint seen is trusted as is.
 */
export function createWitness(options: WitnessOptions) {
  const { name, privateKey, log, db, logger } = options;
  const logKey = parseVerifierKey(options.logVerifierKey);
  if (!logKey) throw new Error('the log verifier key is not a C2SP Ed25519 verifier key (<origin>+<hex key hash>+<base64 key>)');
  const origin = logKey.keyName;
  const metrics = {
    cosigned: new Counter({ name: 'witness_cosignatures_total', help: 'Checkpoints the witness cosigned', registers: [options.metrics] }),
    refused: new Counter({
      name: 'witness_consistency_failures_total',
      help: 'Checkpoints the witness refused because they do not extend what it cosigned',
      labelNames: ['reason'],
      registers: [options.metrics],
    }),
    rejected: new Counter({
      name: 'witness_rejected_checkpoints_total',
      help: 'Checkpoints the witness ignored (bad signature, wrong origin, unreadable)',
      registers: [options.metrics],
    }),
  };

  async function refuse(
    reason: RefusalReason,
    cosignedNote: string,
    cosignedSize: number,
    offeredNote: string,
    body: string,
    offered: Checkpoint,
    proof: Buffer[] | null,
  ): Promise<WitnessOutcome> {
    const refusal: Refusal = {
      origin,
      reason,
      cosignedNote,
      cosignedSize,
      offeredNote,
      offeredBody: body,
      offeredSize: offered.size,
      proof: proof && proof.map((hash) => hash.toString('base64')),
      refusedAt: new Date().toISOString(),
    };
    const isNew = await db.transaction(async (trx) => {
      const inserted = await witnessStore(trx).saveRefusal(refusal);
      if (inserted) await options.onRefused?.(trx, refusal);
      return inserted;
    });
    if (isNew) {
      metrics.refused.inc({ reason });
      logger.error(
        { origin, reason, cosigned_size: cosignedSize, offered_size: offered.size },
        'witness refused a checkpoint: it does not extend the checkpoint cosigned before',
      );
      await log.postRefusal(name, refusal);
    }
    return { outcome: 'refused', reason, size: offered.size };
  }

  async function checkLatest(): Promise<WitnessOutcome> {
    const note = await log.checkpoint();
    const body = verifyNote(note, origin, logKey!.publicKey);
    const offered = body === undefined ? undefined : parseCheckpoint(body);
    if (!body || !offered || offered.origin !== origin) {
      metrics.rejected.inc();
      logger.warn({ origin }, 'witness ignored a checkpoint that does not verify with the pinned log key');
      return { outcome: 'rejected', why: 'the checkpoint does not verify with the pinned log key' };
    }
    const store = witnessStore(db);
    const last = await store.latestCosigned(origin);
    if (last && offered.size < last.size) return refuse('truncated', last.note + last.cosignature, last.size, note, body, offered, null);
    if (last && offered.size === last.size) {
      if (!offered.rootHash.equals(last.rootHash))
        return refuse('forked', last.note + last.cosignature, last.size, note, body, offered, null);
      // Already cosigned: hand it over again if the log does not serve it (an earlier post failed).
      if (!findCosignature(note, body, name, privateKey)) await log.postCosignature(offered.size, last.cosignature);
      return { outcome: 'unchanged', size: offered.size };
    }
    if (last) {
      const proof = await log.consistencyProof(last.size, offered.size);
      if (!proof || !verifyConsistency(last.size, offered.size, proof, last.rootHash, offered.rootHash)) {
        return refuse('inconsistent', last.note + last.cosignature, last.size, note, body, offered, proof ?? null);
      }
    }
    const { line } = cosign(body, name, privateKey, Math.floor(Date.now() / 1000));
    await store.saveCosigned({ origin, size: offered.size, rootHash: offered.rootHash, note, cosignature: line });
    metrics.cosigned.inc();
    await log.postCosignature(offered.size, line);
    logger.info({ origin, size: offered.size }, 'witness cosigned a checkpoint');
    return { outcome: 'cosigned', size: offered.size };
  }

  // Two checks at once could both cosign the same size (a poll and a call from the host): one at a time.
  let inFlight: Promise<unknown> = Promise.resolve();
  function witnessOnce(): Promise<WitnessOutcome> {
    const next = inFlight.then(checkLatest, checkLatest);
    inFlight = next.catch(() => undefined);
    return next;
  }

  return { origin, witnessOnce };
}

export type Witness = ReturnType<typeof createWitness>;
