import { startRescan, virusScannerFrom } from '@platform/files';
import { startPlacementRecovery, type ServiceDefinition } from '@platform/runtime';
import type { EvidenceConfig } from './config';
import {
  startCheckpointer,
  startAuditWatcher,
  auditRoutes,
  auditWitnessRoutes,
  trustedWitnesses,
  checkpointSignerFor,
} from './features/audit';
import { bindersRoutes } from './features/binders';
import { startClaimEventConsumer } from './features/claim-events';
import { controlsRoutes } from './features/controls';
import { evidenceRoutes, pendingFileScans, evidencePlacements, evidenceStorage } from './features/evidence';
import { startRunScheduler, runsRoutes } from './features/runs';
import { evidenceMigrations } from './migrations';

/** The evidence service: controls, runs, evidence, approvals, binders and the verifiable audit log. */
export function evidenceService(config: EvidenceConfig): ServiceDefinition {
  const auditSigner = checkpointSignerFor(config.AUDIT_SIGNING_KEY);
  const scanner = virusScannerFrom(config);
  const witnesses = trustedWitnesses(config.AUDIT_WITNESS_KEYS);
  return {
    name: 'evidence',
    title: 'Evidence service',
    description: 'Controls and versions, runs, evidence, approvals, examiner-ready binders and a tamper-evident audit log.',
    tags: {
      Audit: 'The tamper-evident audit log: records, signed checkpoints, proofs and witness cosignatures',
      Binders: 'Examiner-ready binders of a run: immutable, downloadable and verifiable offline',
      Controls: 'Controls and their versions: what evidence each period must show',
      Evidence: 'Notes, links, records and files added to a run as evidence',
      Runs: 'Runs of a control version over a period: opened, evidenced, reviewed and approved',
    },
    basePath: '/api/evidence',
    migrations: evidenceMigrations,
    exchanges: [config.EVIDENCE_EXCHANGE],
    mount(app, deps) {
      const signer = auditSigner(deps);
      app.use(auditRoutes(deps, config, signer));
      app.use(auditWitnessRoutes(deps, witnesses));
      app.use(controlsRoutes(deps, config));
      app.use(runsRoutes(deps, config));
      app.use(evidenceRoutes(deps, config, scanner));
      app.use(bindersRoutes(deps, config, signer));
    },
    async startBackground(deps) {
      const files = evidenceStorage(config, deps.dataDir);
      const abandoned = await files.removeAbandoned();
      if (abandoned > 0) deps.logger.warn({ files: abandoned }, 'removed temporary upload files left by an earlier process');
      const placementRecovery = await startPlacementRecovery(
        evidencePlacements(deps.db, files),
        deps.logger,
        'evidence file',
        deps.metrics,
      );
      // Consumers stop first on shutdown, then the checkpointer signs what they appended.
      const claimEvents = await startClaimEventConsumer(deps, config);
      const checkpointer = await startCheckpointer({
        db: deps.db,
        signer: auditSigner(deps),
        exchange: config.EVIDENCE_EXCHANGE,
        logger: deps.logger,
        metrics: deps.metrics,
        every: config.AUDIT_CHECKPOINT_EVERY,
        delayMs: config.AUDIT_CHECKPOINT_DELAY_MS,
        intervalMs: config.AUDIT_CHECKPOINT_INTERVAL_MS,
      });
      const auditWatcher =
        config.AUDIT_WATCH_INTERVAL_MS > 0 &&
        startAuditWatcher({
          db: deps.db,
          signer: auditSigner(deps),
          exchange: config.EVIDENCE_EXCHANGE,
          logger: deps.logger,
          metrics: deps.metrics,
          intervalMs: config.AUDIT_WATCH_INTERVAL_MS,
          pageSize: config.AUDIT_VERIFY_PAGE_SIZE,
        });
      const fileRescan = startRescan({
        db: deps.db,
        scanner,
        pending: pendingFileScans(files, config.EVIDENCE_EXCHANGE),
        intervalMs: config.SCAN_RETRY_INTERVAL_MS,
        logger: deps.logger,
        metrics: deps.metrics,
        what: 'evidence files',
      });
      const runScheduler = config.RUN_SCHEDULER
        ? startRunScheduler(
            { db: deps.db, exchange: config.EVIDENCE_EXCHANGE, logger: deps.logger, metrics: deps.metrics },
            config.RUN_SCHEDULER_INTERVAL_MS,
          )
        : undefined;
      return {
        async stop() {
          await runScheduler?.stop();
          await fileRescan?.stop();
          await placementRecovery.stop();
          await claimEvents.stop();
          await checkpointer.stop();
          if (auditWatcher) await auditWatcher.stop();
        },
      };
    },
  };
}
