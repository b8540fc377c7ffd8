import type { ServiceDefinition } from '@platform/runtime';
import type { EvidenceConfig } from './config';
import { evidenceMigrations } from './migrations';

/** The evidence service: controls, runs, evidence, approvals, binders and the verifiable audit log. */
export function evidenceService(config: EvidenceConfig): ServiceDefinition {
  return {
    name: 'evidence',
    title: 'Evidence service',
    description: 'Controls and versions, runs, evidence, approvals, examiner-ready binders and a tamper-evident audit log.',
    basePath: '/api/evidence',
    migrations: evidenceMigrations,
    exchanges: [config.EVIDENCE_EXCHANGE],
    mount() {
      // features are mounted here
    },
  };
}
