import { createEvent, enqueueEvent } from '@platform/messaging';
import type { ServiceDeps } from '@platform/runtime';
import { startConfiguredWitness, type RunningWitness } from '@platform/witness';
import type { ClaimsConfig } from '../../config';
import { CLAIMS_EVENT_SOURCE } from '../../shared/claim-change';
import { witnessConsistencyFailed } from './witness-events';

/**
 * The witness of the evidence audit log, hosted on the claims service's database and key when
 * WITNESS_EVIDENCE_URL is set. A refusal is announced as `witness.consistency_failed` through the outbox,
 * in the transaction that stores it.
 */
export function startHostedWitness(deps: ServiceDeps, config: ClaimsConfig): RunningWitness | undefined {
  return startConfiguredWitness(config, {
    db: deps.db,
    dataDir: deps.dataDir,
    logger: deps.logger,
    metrics: deps.metrics,
    async onRefused(trx, refusal) {
      const data = {
        origin: refusal.origin,
        reason: refusal.reason,
        cosigned_size: refusal.cosignedSize,
        offered_size: refusal.offeredSize,
        cosigned_checkpoint: refusal.cosignedNote,
        offered_checkpoint: refusal.offeredNote,
        proof: refusal.proof,
        refused_at: refusal.refusedAt,
      };
      const event = createEvent({
        source: CLAIMS_EVENT_SOURCE,
        type: witnessConsistencyFailed.type,
        subject: refusal.origin,
        dataschema: witnessConsistencyFailed.schema.$id,
        data,
      });
      await enqueueEvent(trx, config.CLAIMS_EXCHANGE, event);
    },
  });
}
