import type { Knex } from '@platform/db';
import type { FileStorage } from '@platform/files';
import { startPeriodicTask } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
import { claimStore, openClaim, withoutTokenHash } from '../../shared/claim-store';
import { attachmentsStore, type ClaimFiles } from '../attachments';
import type { ClaimantKeys } from '../claimants';
import { deliveriesStore } from '../delivery';
import { statusUpdatesStore } from '../status-updates';
import { claimIdsOfClaimant } from './claimant-claims';
import { exportArchive } from './export-archive';
import { exportsStore, type ExportRow } from './exports-store';

/** A build holds its lease this long past its last progress; a build left by a dead process is taken up after it. */
export const EXPORT_LEASE_SECONDS = 300;
/** Builds that failed this many times (a crash each time) are marked failed rather than retried for ever. */
const MAX_ATTEMPTS = 3;
/** A failed build is retried once its lease runs out this long after the failure. */
const RETRY_AFTER_SECONDS = 30;
/** Files a claim's attachments may hold: a quarantined or unscanned file is listed, not copied. */
const COPIED_SCAN_STATUSES = new Set(['clean', 'not_scanned']);

/** A file name safe in any unzip tool: the claimant chose it, so it keeps only plain characters. */
const safeName = (name: string) =>
  name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 100) || 'file';

async function notesOf(db: Knex, claimId: string, withText: boolean) {
  const rows: { id: string; topic: string | null; corrects: string | null; author: string; created_at: Date; body: string }[] = await db(
    'claim_notes',
  )
    .where({ claim_id: claimId })
    .orderBy(['created_at', 'id']);
  return rows.map((row) => ({
    note_id: row.id,
    author: row.author,
    topic: row.topic,
    corrects: row.corrects,
    created_at: new Date(row.created_at).toISOString(),
    ...(withText ? { body: row.body } : {}),
  }));
}

export interface ExportBuildSettings {
  /** The claims' files, opened (decrypted) as the claimant sent them. */
  attachments: Pick<ClaimFiles, 'open'>;
  /** The claimants' data keys: the archive holds the personal fields opened, as the claimant gave them. */
  keys: ClaimantKeys;
  exports: FileStorage;
  /** Called once an export is ready and committed (wakes the delivery worker for a claimant's link). */
  afterReady(): void;
}

/** A claimant's own export, once ready, sends its link to the claim's email or phone; on the portal channel the portal shows it. */
async function queueClaimantLink(trx: Knex, row: ExportRow): Promise<void> {
  if (row.via_claim_id === null) return;
  const claim = await claimStore(trx).find(row.via_claim_id);
  if (claim && claim.preferred_channel !== 'portal')
    await deliveriesStore(trx).queueExportLink(claim.claim_id, row.id, claim.preferred_channel);
}

/**
 * Builds one leased export: fixes the claimant's claims, then per claim writes its file (the claim as the
 * claim store reads it), the status updates sent, the deliveries, the attachments' list and copies, and
 * the internal notes (listed; their text only when the export includes it), counting progress as it goes.
 */
async function build(db: Knex, settings: ExportBuildSettings, row: ExportRow): Promise<void> {
  const store = exportsStore(db);
  const claimIds = await claimIdsOfClaimant(db, row.claimant_id);
  const attachmentsByClaim = new Map(
    await Promise.all(claimIds.map(async (id) => [id, await attachmentsStore(db).listOfClaim(id)] as const)),
  );
  const total = claimIds.reduce((sum, id) => sum + 1 + attachmentsByClaim.get(id)!.length, 0);
  await store.plan(row.id, claimIds, total);
  const key = await settings.keys.keyFor(row.claimant_id);
  const archive = exportArchive(settings.exports, key ? { key, exportId: row.id } : undefined);
  try {
    let done = 0;
    const claims = [];
    for (const claimId of claimIds) {
      const claim = await claimStore(db).find(claimId);
      if (!claim) continue;
      const folder = `claims/${claim.claim_number}`;
      claims.push({ claim_id: claim.claim_id, claim_number: claim.claim_number });
      archive.addJson(`${folder}/claim.json`, openClaim(withoutTokenHash(claim), key));
      archive.addJson(`${folder}/status-updates.json`, await statusUpdatesStore(db, key).listOfClaim(claimId));
      archive.addJson(`${folder}/deliveries.json`, await deliveriesStore(db).listOfClaim(claimId));
      archive.addJson(`${folder}/notes.json`, await notesOf(db, claimId, row.include_internal_notes));
      const attachments = attachmentsByClaim.get(claimId)!;
      const listed = attachments.map((attachment) => ({
        ...attachment,
        file: COPIED_SCAN_STATUSES.has(attachment.scan_status)
          ? `${folder}/attachments/${attachment.attachment_id}-${safeName(attachment.filename)}`
          : null,
      }));
      archive.addJson(`${folder}/attachments.json`, listed);
      await store.progress(row.id, (done += 1), EXPORT_LEASE_SECONDS);
      for (const attachment of listed) {
        if (attachment.file) await archive.addFile(attachment.file, await settings.attachments.open(claimId, attachment.attachment_id));
        await store.progress(row.id, (done += 1), EXPORT_LEASE_SECONDS);
      }
    }
    const stored = await archive.finish({
      export_id: row.id,
      claimant_id: row.claimant_id,
      generated_at: new Date().toISOString(),
      include_internal_notes: row.include_internal_notes,
      claims,
    });
    const ready = await db.transaction(async (trx) => {
      if (!(await exportsStore(trx).markReady(row.id, stored))) return false;
      await queueClaimantLink(trx, row);
      return true;
    });
    // erased while it was built: the archive must not outlive the erasure
    if (!ready) await settings.exports.remove(stored.storedSha256 ?? stored.sha256);
    else settings.afterReady();
  } catch (error) {
    archive.abort();
    throw error;
  }
}

/** Builds every export due, one after another; a build that throws is retried by a later pass until MAX_ATTEMPTS. */
export async function buildDueExports(db: Knex, settings: ExportBuildSettings, logger: ServiceDeps['logger']): Promise<number> {
  let built = 0;
  for (
    let row = await exportsStore(db).leaseNext(EXPORT_LEASE_SECONDS);
    row;
    row = await exportsStore(db).leaseNext(EXPORT_LEASE_SECONDS)
  ) {
    try {
      if (row.attempts > MAX_ATTEMPTS) throw new Error(`The build failed ${MAX_ATTEMPTS} times`);
      await build(db, settings, row);
      built += 1;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.warn({ export_id: row.id, attempts: row.attempts, err: message }, 'export build failed');
      if (row.attempts >= MAX_ATTEMPTS) await exportsStore(db).markFailed(row.id, message);
      else await exportsStore(db).progress(row.id, 0, RETRY_AFTER_SECONDS); // a later pass retries it
    }
  }
  return built;
}

/** The builder as the service holds it: started with the background work; `kick` wakes it after an export is requested. */
export function exportBuilderHandle(intervalMs: number) {
  let wake: (() => void) | undefined;
  return {
    kick: () => wake?.(),
    start(deps: ServiceDeps, settings: ExportBuildSettings) {
      const task = startPeriodicTask({
        name: 'exports',
        work: () => buildDueExports(deps.db, settings, deps.logger),
        intervalMs,
        logger: deps.logger,
        metrics: deps.metrics,
      });
      wake = () => void task.wake();
      return task;
    },
  };
}
