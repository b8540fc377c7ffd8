import type { Router } from 'express';
import { principalOf } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { problems } from '@platform/http';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import { PRIVACY_SCOPE } from '../../shared/privacy-scope';
import { expectedVersionOf } from '../assignment';
import {
  retentionPolicyRequestSchema,
  retentionPolicySchema,
  retentionPolicyVersionsSchema,
  type RetentionPolicyRequest,
} from './retention-policy-schemas';
import { retentionPolicyService } from './retention-policy-service';

const PATH = '/api/claims/retention-policy';

const policyExample = {
  version: 2,
  retention_days: { paid: 2555, denied: 3650, withdrawn: 1095, duplicate: 365 },
  reason: 'Denied claims kept 10 years: litigation limitation in two states',
  published_by: 'privacy-pat',
  published_at: '2026-12-01T09:00:00.000Z',
};

/** GET and PUT /api/claims/retention-policy, GET …/versions (privacy:manage). */
export function retentionPolicyRoutes(deps: ServiceDeps): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Privacy');
  const policies = withTransactional(retentionPolicyService(), deps.db);
  const common = {
    401: { description: 'No credentials, or credentials that do not verify' },
    403: { description: 'The caller lacks privacy:manage' },
    503: { description: 'The database is unavailable' },
  };

  defineRoute({
    method: 'get',
    path: PATH,
    operationId: 'getRetentionPolicy',
    summary: 'The retention policy in force',
    description:
      'Per closing reason, how many days after a claim closed its personal data is kept; the retention sweep erases a claimant ' +
      'once every one of their claims is past its retention and none is on legal hold. The `ETag` is the version. Version 1 is ' +
      'published by the migration: paid and denied 2555 days (7 years), withdrawn 1095 (3 years), duplicate 365 (1 year).',
    scopes: [PRIVACY_SCOPE],
    responses: {
      200: {
        description: 'The version in force',
        schema: retentionPolicySchema,
        schemaName: 'RetentionPolicy',
        example: policyExample,
        headers: { ETag: 'The version, e.g. "2"' },
      },
      ...common,
    },
    handler: async (_req, res) => {
      const policy = await policies.transactional((service) => service.current());
      res.set('ETag', `"${policy.version}"`).json(policy);
    },
  });

  defineRoute({
    method: 'get',
    path: `${PATH}/versions`,
    operationId: 'listRetentionPolicyVersions',
    summary: 'Every version of the retention policy, newest first',
    description:
      'Published versions never change (the database refuses it), so this is the history: what was in force, who published it and why.',
    scopes: [PRIVACY_SCOPE],
    responses: {
      200: {
        description: 'The versions, newest (in force) first',
        schema: retentionPolicyVersionsSchema,
        example: { items: [policyExample] },
      },
      ...common,
    },
    handler: async (_req, res) => {
      res.json({ items: await policies.transactional((service) => service.versions()) });
    },
  });

  defineRoute<{ body: RetentionPolicyRequest }>({
    method: 'put',
    path: PATH,
    operationId: 'publishRetentionPolicy',
    summary: 'Publish the next version of the retention policy',
    description:
      'The body is the whole policy (days for every closing reason) and why it is published. `If-Match` must name the version in ' +
      'force (its `ETag`): without it (or with `*`) it is 400, a stale one is 409, so two privacy officers never overwrite each ' +
      'other unseen. The new version is the next number, in force from now on (the next sweep applies it); the earlier versions ' +
      'stay as they were. The publisher (JWT sub), time and reason are recorded with it.',
    scopes: [PRIVACY_SCOPE],
    parameters: [
      {
        name: 'If-Match',
        in: 'header',
        required: true,
        schema: { type: 'string' },
        description: 'The ETag of the version in force, e.g. "1"',
      },
    ],
    body: {
      contentType: 'application/json',
      schema: retentionPolicyRequestSchema,
      schemaName: 'RetentionPolicyRequest',
      example: { retention_days: policyExample.retention_days, reason: policyExample.reason },
    },
    responses: {
      200: {
        description: 'The published version, now in force',
        schema: retentionPolicySchema,
        schemaName: 'RetentionPolicy',
        example: policyExample,
        headers: { ETag: 'The new version' },
      },
      400: { description: 'Malformed JSON, a schema violation (a reason missing, negative days), or If-Match missing or not an ETag' },
      ...common,
      409: { description: 'If-Match names a version that is no longer in force' },
      415: { description: 'Content-Type is not application/json' },
    },
    handler: async (req, res, { body }) => {
      const basedOn = expectedVersionOf(req.get('if-match'));
      if (basedOn === undefined)
        throw problems.badRequest('If-Match is required: the ETag of the retention policy version you read, e.g. "1"', [
          { pointer: '/headers/if-match', message: 'is required' },
        ]);
      const published = await policies.transactional((service) => service.publish(body, basedOn, principalOf(req).sub));
      res.set('ETag', `"${published.version}"`).json(published);
    },
  });

  return router;
}
