import { startPendingScans, virusScannerFrom, type ServiceDefinition } from '@platform/runtime';
import type { EvidenceConfig } from './config';
import { auditLogFeature } from './features/audit';
import { auditPublicKey } from './features/binders/audit-key';
import { bindersRoutes } from './features/binders/binders-routes';
import { controlsRoutes } from './features/controls/controls-routes';
import { evidenceRoutes } from './features/evidence/evidence-routes';
import { runsRoutes } from './features/runs/runs-routes';
import { startClaimEventConsumer } from './features/claim-events';
import { evidenceMigrations } from './migrations';
import { rescanPendingFiles } from './features/evidence/file-rescan';
import { EvidenceFileStore } from './features/evidence/file-store';

/** The evidence service: controls, runs, evidence, approvals, binders and the verifiable audit log. */
export function evidenceService(config: EvidenceConfig): ServiceDefinition {
  const auditLog = auditLogFeature(config);
  const scanner = virusScannerFrom(config);
  return {
    name: 'evidence',
    title: 'Evidence service',
    description: 'Controls and versions, runs, evidence, approvals, examiner-ready binders and a tamper-evident audit log.',
    basePath: '/api/evidence',
    migrations: evidenceMigrations,
    exchanges: [config.EVIDENCE_EXCHANGE],
    mount(app, deps) {
      // features are mounted here
      auditLog.mount(app, deps);
      // the evidence workflow: controls, runs, evidence, binders (each change audited and published)
      const exchange = config.EVIDENCE_EXCHANGE;
      app.use('/api/evidence', controlsRoutes(deps, { exchange }));
      app.use('/api/evidence', runsRoutes(deps, { exchange }));
      app.use('/api/evidence', evidenceRoutes(deps, { exchange, maxBytes: config.EVIDENCE_MAX_BYTES, scanner }));
      app.use('/api/evidence', bindersRoutes(deps, { exchange, publicBaseUrl: config.PUBLIC_BASE_URL, auditKey: auditPublicKey(config.AUDIT_SIGNING_KEY, deps) }));
    },
    async startBackground(deps) {
      const files = new EvidenceFileStore(deps.dataDir);
      const abandoned = await files.removeAbandonedUploads();
      if (abandoned > 0) deps.logger.warn({ files: abandoned }, 'removed temporary upload files left by an earlier process');
      // Consumers stop first on shutdown, then the checkpointer signs what they appended.
      const claimEvents = await startClaimEventConsumer(deps, config);
      const checkpointer = await auditLog.startBackground(deps);
      const exchange = config.EVIDENCE_EXCHANGE;
      const fileRescan = scanner && startPendingScans(() => rescanPendingFiles(deps.db, scanner, files, exchange), config.SCAN_RETRY_INTERVAL_MS, deps.logger, 'evidence files');
      return {
        async stop() {
          await fileRescan?.stop();
          await claimEvents.stop();
          await checkpointer.stop();
        },
      };
    },
  };
}
