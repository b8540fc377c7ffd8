import type { ServiceDefinition } from '@platform/runtime';
import type { ClaimsConfig } from './config';
import { claimsMigrations } from './migrations';

/** The claims service: public first notice of loss and claimant status, internal adjuster work. */
export function claimsService(config: ClaimsConfig): ServiceDefinition {
  return {
    name: 'claims',
    title: 'Claims service',
    description: 'First notice of loss, claimant status and attachments, triage with human gates, status updates, adjuster kits.',
    basePath: '/api/claims',
    migrations: claimsMigrations,
    exchanges: [config.CLAIMS_EXCHANGE],
    mount() {
      // features are mounted here
    },
  };
}
