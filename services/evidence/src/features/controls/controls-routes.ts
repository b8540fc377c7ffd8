import type { Router } from 'express';
import { withTransactional } from '@platform/db';
import { principalOf } from '@platform/auth';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { EvidenceConfig } from '../../config';
import { READ_SCOPES, assertUuidPath, AUTH_ERRORS } from '../../shared/access';
import {
  controlListResponseSchema,
  controlResponseSchema,
  controlWithVersionsResponseSchema,
  createControlRequestSchema,
  createVersionRequestSchema,
  dueControlListResponseSchema,
  listControlsQuerySchema,
  type CreateControlRequest,
  type CreateVersionRequest,
  type ListControlsQuery,
} from './controls-schemas';
import { controlsService } from './controls-service';
import { controlExample, controlWithVersionsExample, createControlRequestExample } from '../../shared/examples';

export function controlsRoutes(deps: ServiceDeps, config: EvidenceConfig): Router {
  const service = withTransactional(controlsService({ exchange: config.EVIDENCE_EXCHANGE }), deps.db);
  const { router, defineRoute } = featureRoutes(deps, 'Controls');

  defineRoute<{ body: CreateControlRequest }>({
    method: 'post',
    path: '/api/evidence/controls',
    operationId: 'createControl',
    summary: 'Create a control (version 1)',
    scopes: ['evidence:write'],
    body: { contentType: 'application/json', schema: createControlRequestSchema, example: createControlRequestExample },
    responses: {
      201: {
        description: 'Created, with its first version',
        schema: controlResponseSchema,
        schemaName: 'Control',
        example: controlExample,
        headers: { Location: 'The control' },
      },
      400: { description: 'Invalid body or unknown field' },
      ...AUTH_ERRORS,
      409: { description: 'The key is taken (`existing_control_id` names its control)' },
      415: { description: 'Not JSON' },
    },
    handler: async (req, res, { body }) => {
      const control = await service.transactional((s) => s.create(body, principalOf(req).sub));
      res.status(201).location(`/api/evidence/controls/${control.control_id}`).json(control);
    },
  });

  defineRoute<{ body: CreateVersionRequest }>({
    method: 'post',
    path: '/api/evidence/controls/{id}/versions',
    operationId: 'createControlVersion',
    summary: 'Add an immutable new version of a control',
    description:
      'The new version (n+1) takes the fields sent and carries the others over from the current version. Versions are never edited.',
    scopes: ['evidence:write'],
    body: {
      contentType: 'application/json',
      schema: createVersionRequestSchema,
      example: { test_procedure: 'Sample twenty joiners and leavers' },
    },
    responses: {
      201: {
        description: 'The control with its new current version',
        schema: controlResponseSchema,
        schemaName: 'Control',
        example: {
          ...controlExample,
          test_procedure: 'Sample twenty joiners and leavers',
          current_version: { ...controlExample.current_version, control_version_id: '8b7c6d5e-4f3a-4b2c-8d1e-0f9a8b7c6d5e', version: 2 },
        },
      },
      400: { description: 'Invalid body or unknown field (the key cannot change)' },
      ...AUTH_ERRORS,
      404: { description: 'No such control' },
      415: { description: 'Not JSON' },
    },
    handler: async (req, res, { body }) => {
      const controlId = assertUuidPath(req.params.id, 'control');
      const control = await service.transactional((s) => s.addVersion(controlId, body, principalOf(req).sub));
      res.status(201).location(`/api/evidence/controls/${control.control_id}`).json(control);
    },
  });

  defineRoute<{ query: ListControlsQuery }>({
    method: 'get',
    path: '/api/evidence/controls',
    operationId: 'listControls',
    summary: 'List controls by key (keyset pagination)',
    description: `Readable with any of ${READ_SCOPES.join(', ')}.`,
    scopes: READ_SCOPES,
    query: listControlsQuerySchema,
    responses: {
      200: {
        description: 'A page of controls',
        schema: controlListResponseSchema,
        example: { items: [controlExample], next_cursor: null },
      },
      400: { description: 'Bad query parameter' },
      ...AUTH_ERRORS,
    },
    handler: async (_req, res, { query }) => {
      res.json(await service.list(query));
    },
  });

  // Before /controls/{id}, which would take "due" for an id
  defineRoute<{ query: ListControlsQuery }>({
    method: 'get',
    path: '/api/evidence/controls/due',
    operationId: 'listDueControls',
    summary: 'List controls whose current period has no run (by key, keyset pagination)',
    description:
      'The current period of a control is that of its current version’s frequency, in UTC: daily the day, weekly the ISO week (Monday to Sunday), monthly the calendar month, quarterly the calendar quarter, annual the calendar year. A run of any version of the control whose period overlaps it counts. `continuous`, `ad_hoc` and unset frequencies have no period and are never due.',
    scopes: ['evidence:write'],
    query: listControlsQuerySchema,
    responses: {
      200: {
        description: 'A page of due controls, each with its current period',
        schema: dueControlListResponseSchema,
        schemaName: 'DueControlList',
        example: {
          items: [
            {
              control_id: controlExample.control_id,
              key: controlExample.key,
              title: controlExample.title,
              owner: controlExample.owner,
              frequency: 'quarterly',
              control_version_id: controlExample.current_version.control_version_id,
              version: 1,
              period_start: '2026-10-01',
              period_end: '2026-12-31',
            },
          ],
          next_cursor: null,
        },
      },
      400: { description: 'Bad query parameter' },
      ...AUTH_ERRORS,
    },
    handler: async (_req, res, { query }) => {
      res.json(await service.due(query, new Date()));
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/evidence/controls/{id}',
    operationId: 'getControl',
    summary: 'Read a control with all its versions',
    description: `Readable with any of ${READ_SCOPES.join(', ')}.`,
    scopes: READ_SCOPES,
    responses: {
      200: { description: 'The control', schema: controlWithVersionsResponseSchema, example: controlWithVersionsExample },
      ...AUTH_ERRORS,
      404: { description: 'No such control' },
    },
    handler: async (req, res) => {
      res.json(await service.get(assertUuidPath(req.params.id, 'control')));
    },
  });

  return router;
}
