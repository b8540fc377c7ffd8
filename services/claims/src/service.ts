import { startRescan, virusScannerFrom } from '@platform/files';
import { startPlacementRecovery, type ServiceDefinition } from '@platform/runtime';
import type { Knex } from '@platform/db';
import type { ClaimsConfig } from './config';
import {
  pendingAttachmentScans,
  registerAttachmentScanMetrics,
  attachmentsRoutes,
  attachmentPlacements,
  attachmentStorage,
  claimFiles,
} from './features/attachments';
import { accessLinksRoutes } from './features/access-links';
import { accessLogRoutes } from './features/access-log';
import { claimantStatusRoutes } from './features/claimant-status';
import { withdrawalRoutes } from './features/withdrawal';
import { claimsRoutes } from './features/claims';
import { claimsListRoutes, indexUnindexedNames, nameIndexKey } from './features/claims-list';
import { startIdempotencyPurge, intakeRoutes } from './features/intake';
import { adjusterKitsRoutes } from './features/adjuster-kits';
import { assignmentRoutes } from './features/assignment';
import { deliveryWorkerHandle, deliveryRoutes, registerDeliveryMetrics } from './features/delivery';
import { startDeadlineSweeper, registerDeadlineMetrics } from './features/deadlines';
import { financialsRoutes } from './features/financials';
import { diaryRoutes, startDiarySweeper } from './features/diary';
import { notesRoutes } from './features/notes';
import { exportBuilderHandle, exportStorage, exportsRoutes } from './features/exports';
import { contactsRoutes } from './features/contacts';
import { statusUpdatesRoutes } from './features/status-updates';
import { escalationsRoutes } from './features/escalations';
import { claimTriageDetail, claimTriageDetailProperties, triageRoutes } from './features/triage';
import { triagePolicyRoutes } from './features/triage-policy';
import { retentionPolicyRoutes } from './features/retention-policy';
import { legalHoldsRoutes } from './features/legal-holds';
import {
  claimErasureDetail,
  claimErasureDetailProperties,
  erasureRoutes,
  startRetentionSweeper,
  type ErasureOptions,
} from './features/erasure';
import { claimantPrivacyFor, startKeyRewrap, startPlainFieldSealing } from './features/claimants';
import { startHostedWitness } from './features/witness';
import { claimsMigrations } from './migrations';

/** The claims service: public first notice of loss and claimant status, internal adjuster work. */
export function claimsService(config: ClaimsConfig): ServiceDefinition {
  const delivery = deliveryWorkerHandle(config);
  const scanner = virusScannerFrom(config);
  const exportBuilder = exportBuilderHandle(config.EXPORT_BUILD_INTERVAL_MS);
  const erasedFileStorage = (dataDir: string) => ({
    attachments: attachmentStorage(config, dataDir),
    exports: exportStorage(config, dataDir),
  });
  const erasureOptions = (deps: { db: Knex; dataDir: string }): ErasureOptions => ({
    exchange: config.CLAIMS_EXCHANGE,
    destroyKey: (trx, claimantId) => claimantPrivacyFor(deps, config).keys.destroyKey(trx, claimantId),
  });
  return {
    name: 'claims',
    title: 'Claims service',
    description: 'First notice of loss, claimant status and attachments, triage with human gates, status updates, adjuster kits.',
    tags: {
      'Access links': "A new access link for a claimant who lost theirs, sent to the claim's email or phone",
      'Access log': 'Who read a claim’s personal data (the claim file, attachments, kits, exports), when and why',
      'Adjuster kits': 'Hashed snapshots of a claim file for an adjuster to start work from, and the files they list',
      Assignment: 'Who works a claim: the directory of adjusters and the claim’s assignee',
      Attachments: 'Files added to a claim, scanned for viruses before they count',
      'Claimant status': 'What claimants see of their own claim, opened with its access token',
      Claims: 'The claim file and the queue of claims, for the people who work them',
      Contacts: 'Contacts an adjuster made with the claimant; the first ends the first-contact deadline',
      Diary: 'Activities on claims, due on a day, and each adjuster’s own diary across claims',
      Escalations: 'Decisions on triage escalations that need a person',
      Exports: 'Subject-access exports: everything held about a claimant, as a zip with a manifest and SHA-256 sums',
      Financials: 'Reserves and payments of a claim, with approval above the requester’s authority',
      Intake: 'First notice of loss: filing a new claim',
      Notes: 'Internal notes on a claim, for the people who work it',
      Privacy: 'Retention of personal data, legal holds and the erasure of a claimant, for privacy officers',
      'Status updates': 'Updates to the claimant on the claim’s progress, delivered on their channel',
      Triage: 'Scoring a new claim and routing it, with human gates',
      Withdrawal: 'A claim withdrawn before settlement',
    },
    basePath: '/api/claims',
    migrations: claimsMigrations,
    exchanges: [config.CLAIMS_EXCHANGE],
    mount(app, deps) {
      app.use(intakeRoutes(deps, config));
      app.use(claimantStatusRoutes(deps, config));
      app.use(withdrawalRoutes(deps, config));
      app.use(accessLinksRoutes(deps, config, delivery.kick));
      app.use(attachmentsRoutes(deps, config, scanner));
      app.use(claimsListRoutes(deps, config));
      app.use(
        claimsRoutes(deps, config, [
          { properties: claimTriageDetailProperties, load: claimTriageDetail },
          { properties: claimErasureDetailProperties, load: claimErasureDetail },
        ]),
      );
      // claims workflow: triage and escalation decisions, status updates, adjuster kits
      app.use(triagePolicyRoutes(deps));
      app.use(triageRoutes(deps, config));
      app.use(escalationsRoutes(deps, config));
      app.use(statusUpdatesRoutes(deps, config, delivery.kick));
      app.use(adjusterKitsRoutes(deps, config));
      app.use(deliveryRoutes(deps, config));
      app.use(assignmentRoutes(deps, config));
      app.use(financialsRoutes(deps, config));
      app.use(notesRoutes(deps, config));
      app.use(contactsRoutes(deps, config));
      app.use(diaryRoutes(deps, config));
      app.use(retentionPolicyRoutes(deps));
      app.use(legalHoldsRoutes(deps, config));
      app.use(accessLogRoutes(deps));
      app.use(erasureRoutes(deps, erasureOptions(deps), erasedFileStorage(deps.dataDir)));
      app.use(exportsRoutes(deps, config, exportStorage(config, deps.dataDir), exportBuilder.kick));
    },
    async startBackground(deps) {
      const files = claimFiles(deps, config);
      const attachments = files.storage;
      const abandoned = await attachments.removeAbandoned();
      if (abandoned > 0) deps.logger.warn({ files: abandoned }, 'removed temporary upload files left by an earlier process');
      const placementRecovery = await startPlacementRecovery(
        attachmentPlacements(deps.db, attachments),
        deps.logger,
        'attachment',
        deps.metrics,
      );
      const namesIndexed = await indexUnindexedNames(deps.db, nameIndexKey(claimantPrivacyFor(deps, config), deps.dataDir));
      if (namesIndexed > 0) deps.logger.info({ claims: namesIndexed }, 'indexed the names of claims filed before the keyed name index');
      const idempotencyPurge = startIdempotencyPurge(deps); // claims core
      const plainFieldSealing = startPlainFieldSealing(deps, claimantPrivacyFor(deps, config));
      const keyRewrap = startKeyRewrap(deps, claimantPrivacyFor(deps, config));
      const attachmentRescan = startRescan({
        db: deps.db,
        scanner,
        pending: pendingAttachmentScans(files, config.CLAIMS_EXCHANGE),
        intervalMs: config.SCAN_RETRY_INTERVAL_MS,
        logger: deps.logger,
        metrics: deps.metrics,
        what: 'attachments',
      });
      // claims workflow: the delivery worker and the deadline sweep, and their gauges
      const deliveryWorker = delivery.start(deps);
      const deadlineSweeper = startDeadlineSweeper(
        deps.db,
        config.CLAIMS_EXCHANGE,
        config.OVERDUE_SWEEP_INTERVAL_MS,
        deps.logger,
        deps.metrics,
      );
      registerDeadlineMetrics(deps);
      registerDeliveryMetrics(deps);
      registerAttachmentScanMetrics(deps);
      const witness = startHostedWitness(deps, config);
      const diarySweeper = startDiarySweeper(deps, config.CLAIMS_EXCHANGE, config.OVERDUE_SWEEP_INTERVAL_MS);
      const retentionSweeper = startRetentionSweeper(
        deps,
        erasureOptions(deps),
        erasedFileStorage(deps.dataDir),
        config.RETENTION_SWEEP_INTERVAL_MS,
      );
      const exportArchives = exportStorage(config, deps.dataDir);
      const abandonedArchives = await exportArchives.removeAbandoned();
      if (abandonedArchives > 0)
        deps.logger.warn({ files: abandonedArchives }, 'removed export archives an earlier process left unfinished');
      const exportBuilds = exportBuilder.start(deps, {
        attachments: files,
        exports: exportArchives,
        keys: claimantPrivacyFor(deps, config).keys,
        afterReady: delivery.kick,
      });
      return {
        async stop() {
          await exportBuilds.stop();
          await witness?.stop();
          await retentionSweeper.stop();
          await diarySweeper.stop();
          await deadlineSweeper.stop();
          await attachmentRescan?.stop();
          await deliveryWorker.stop();
          await idempotencyPurge.stop();
          await plainFieldSealing.stop();
          await keyRewrap.stop();
          await placementRecovery.stop();
        },
      };
    },
  };
}
