import { randomUUID } from 'node:crypto';
import { canonicalSha256 } from '@platform/canonical-json';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { claimStore, openClaim } from '../../shared/claim-store';
import type { ClaimantKeys } from '../claimants';
import { recordClaimChange } from '../../shared/claim-change';
import { claimAdjusterKitGenerated } from './adjuster-kits-events';
import type { AdjusterKit, AdjusterKitSnapshot } from './adjuster-kits-schemas';
import { isUuid, lockClaim, readClaim } from '../../shared/claim-state';
import { claimTriageDetail } from '../triage';
import { adjusterKitsStore } from './adjuster-kits-store';
import { listKitAttachments } from './attachment-files';
import { suggestNextSteps } from './next-steps';

/**
 * Generates an adjuster kit: a stored, hashed, immutable snapshot of the claim file an adjuster can
 * start work from. Everything in it is a draft; generating again makes a new kit.
 */
export function adjusterKitService(exchange: string, keys: ClaimantKeys) {
  return (db: Knex) => ({
    async generate(claimId: string, actor: string): Promise<AdjusterKit> {
      const locked = await lockClaim(db, claimId);
      const key = await keys.keyFor(locked.claimant_id, db);
      // the kit is what an adjuster works from: the claim as they read it, personal fields opened
      const claim = openClaim(locked, key);
      const { triage, escalation } = await claimTriageDetail(db, claim.claim_id);
      const timeline = await claimStore(db).listAudit(claim.claim_id, key);
      const attachments = await listKitAttachments(db, claim.claim_id);
      const generatedAt = new Date();
      const snapshot: AdjusterKitSnapshot = {
        kit_id: randomUUID(),
        claim_id: claim.claim_id,
        generated_at: generatedAt.toISOString(),
        generated_by: actor,
        draft: true,
        claim,
        triage,
        escalation,
        timeline,
        attachments,
        documents_checklist: claim.required_documents.map((document) => ({
          ...document,
          attachment_ids: attachments.filter((a) => a.document_type === document.type).map((a) => a.attachment_id),
        })),
        suggested_next_steps: suggestNextSteps(claim, triage, escalation, generatedAt),
      };
      const sha256 = canonicalSha256(snapshot);
      await adjusterKitsStore(db, key).insert({
        kit_id: snapshot.kit_id,
        claim_id: claim.claim_id,
        generated_at: generatedAt,
        generated_by: actor,
        snapshot,
        sha256,
      });
      await recordClaimChange(db, exchange, {
        claimId: claim.claim_id,
        event: claimAdjusterKitGenerated,
        actor,
        reason: 'Adjuster kit generated',
        data: {
          kit_id: snapshot.kit_id,
          sha256,
          triage_id: triage?.triage_id ?? null,
          attachments: attachments.length,
          stage: claim.stage,
        },
      });
      return { ...snapshot, sha256 };
    },

    async get(claimId: string, kitId: string): Promise<AdjusterKit> {
      const claim = await readClaim(db, claimId);
      const store = adjusterKitsStore(db, await keys.keyFor(claim.claimant_id, db));
      const row = isUuid(kitId) ? await store.find(claim.claim_id, kitId) : undefined;
      if (!row) throw problems.notFound('No such adjuster kit on this claim');
      return { ...(JSON.parse(row.snapshot) as AdjusterKitSnapshot), sha256: row.sha256 };
    },
  });
}
