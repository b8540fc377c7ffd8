import type { Router } from 'express';
import { withTransactional } from '@platform/db';
import { hasScope, principalOf } from '@platform/auth';
import { problems } from '@platform/http';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { EvidenceConfig } from '../../config';
import { evidenceItemSchema } from '../evidence';
import { READ_SCOPES, assertUuidPath, AUTH_ERRORS } from '../../shared/access';
import {
  createRunRequestSchema,
  decisionRequestSchema,
  decisionSchema,
  runResponseSchema,
  runStateSchema,
  type CreateRunRequest,
  type DecisionRequest,
} from './runs-schemas';
import { runsService } from './runs-service';
import { listRunsQuerySchema, runListResponseSchema, type ListRunsQuery } from './runs-list-schemas';
import {
  createRunRequestExample,
  decisionExample,
  decisionRequestExample,
  evidenceExample,
  runExample,
  runStateExample,
} from '../../shared/examples';

const runDetailSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...runStateSchema.required, 'evidence', 'decisions'],
  properties: {
    ...runStateSchema.properties,
    evidence: { type: 'array', items: evidenceItemSchema, description: 'Every item, in submission order; superseded items stay' },
    decisions: { type: 'array', items: decisionSchema },
  },
};

const decisionResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...decisionSchema.required, 'status'],
  properties: { ...decisionSchema.properties, status: { enum: ['approved', 'rejected'] } },
};

export function runsRoutes(deps: ServiceDeps, config: EvidenceConfig): Router {
  const service = withTransactional(runsService({ exchange: config.EVIDENCE_EXCHANGE }), deps.db);
  const { router, defineRoute } = featureRoutes(deps, 'Runs');

  defineRoute<{ body: CreateRunRequest }>({
    method: 'post',
    path: '/api/evidence/runs',
    operationId: 'createRun',
    summary: 'Open a run of a control version over a period',
    scopes: ['evidence:write'],
    body: { contentType: 'application/json', schema: createRunRequestSchema, example: createRunRequestExample },
    responses: {
      201: { description: 'The open run', schema: runResponseSchema, example: runExample, headers: { Location: 'The run' } },
      400: { description: 'Malformed JSON, missing or unknown field, not a calendar date' },
      ...AUTH_ERRORS,
      409: { description: 'The control version already has a run for this period; `existing_run_id` names it' },
      415: { description: 'Not JSON' },
      422: { description: 'period_start after period_end, or unknown control_version_id' },
    },
    handler: async (req, res, { body }) => {
      const run = await service.transactional((s) => s.create(body, principalOf(req).sub));
      res.status(201).location(`/api/evidence/runs/${run.run_id}`).json(run);
    },
  });

  defineRoute<{ query: ListRunsQuery }>({
    method: 'get',
    path: '/api/evidence/runs',
    operationId: 'listRuns',
    summary: 'List runs, or the caller’s approval queue (keyset pagination)',
    description: `Newest first; pass \`next_cursor\` as \`cursor\` for the next page. Readable with any of ${READ_SCOPES.join(', ')}. \`status=in_review&awaiting=me\` is the approval queue: the runs in review the caller may decide (segregation of duties, the rule the decision enforces). Any unknown or malformed parameter is 400.`,
    scopes: READ_SCOPES,
    query: listRunsQuerySchema,
    responses: {
      200: {
        description: 'A page of runs',
        schema: runListResponseSchema,
        schemaName: 'RunList',
        example: { items: [runStateExample], next_cursor: null },
      },
      400: { description: 'An unknown or malformed query parameter, or a cursor this service did not issue' },
      401: AUTH_ERRORS[401],
      403: { description: 'Missing scope, or awaiting=me without evidence:approve' },
      422: { description: 'period_from is not before period_to' },
    },
    handler: async (req, res, { query }) => {
      const principal = principalOf(req);
      if (query.awaiting === 'me' && !hasScope(principal, 'evidence:approve')) {
        throw problems.forbidden('awaiting=me is the approval queue: it requires the evidence:approve scope');
      }
      res.json(await service.list(query, query.awaiting === 'me' ? principal.sub : undefined));
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/evidence/runs/{id}',
    operationId: 'getRun',
    summary: 'Read a run with its evidence and decisions',
    description: `Readable with any of ${READ_SCOPES.join(', ')}.`,
    scopes: READ_SCOPES,
    responses: {
      200: {
        description: 'The run',
        schema: runDetailSchema,
        example: {
          ...runStateExample,
          evidence: [
            {
              ...evidenceExample,
              description: null,
              url: 'https://tickets.example.com/SEC-1042',
              source: 'ticketing',
              file_name: null,
              superseded_by: null,
            },
          ],
          decisions: [],
        },
      },
      ...AUTH_ERRORS,
      404: { description: 'No such run' },
    },
    handler: async (req, res) => {
      res.json(await service.get(assertUuidPath(req.params.id, 'run')));
    },
  });

  defineRoute({
    method: 'post',
    path: '/api/evidence/runs/{id}/submit',
    operationId: 'submitRun',
    summary: 'Submit an open run for review (open → in_review)',
    scopes: ['evidence:write'],
    responses: {
      200: { description: 'The run, now in review', schema: runStateSchema, example: runStateExample },
      ...AUTH_ERRORS,
      404: { description: 'No such run' },
      409: { description: 'The run is not open' },
    },
    handler: async (req, res) => {
      const runId = assertUuidPath(req.params.id, 'run');
      res.json(await service.transactional((s) => s.submit(runId, principalOf(req).sub)));
    },
  });

  defineRoute<{ body: DecisionRequest }>({
    method: 'post',
    path: '/api/evidence/runs/{id}/decision',
    operationId: 'decideRun',
    summary: 'Approve or reject a run in review (final)',
    description:
      'Segregation of duties: the approver must be neither the run’s creator nor anyone who added evidence to it (403). Decisions are final: a second one is 409.',
    scopes: ['evidence:approve'],
    body: { contentType: 'application/json', schema: decisionRequestSchema, example: decisionRequestExample },
    responses: {
      201: {
        description: 'The decision, and the run’s new status',
        schema: decisionResponseSchema,
        example: { ...decisionExample, status: 'approved' },
      },
      400: { description: 'Invalid body; rationale missing or blank' },
      401: AUTH_ERRORS[401],
      403: { description: 'Missing scope, or the caller created the run or added evidence to it' },
      404: { description: 'No such run' },
      409: { description: 'The run is not in review, or already decided' },
      415: { description: 'Not JSON' },
    },
    handler: async (req, res, { body }) => {
      const runId = assertUuidPath(req.params.id, 'run');
      const decision = await service.transactional((s) => s.decide(runId, body, principalOf(req).sub));
      res.status(201).json(decision);
    },
  });

  return router;
}
