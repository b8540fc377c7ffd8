import { Router, type Request } from 'express';
import { withTransactional } from '@platform/db';
import { authenticate, principalOf, requireAnyScope, requireScope } from '@platform/auth';
import { assertValid, jsonBody, noBody, parseQuery } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
import type { EvidenceConfig } from '../../config';
import { READ_SCOPES, assertUuidPath } from '../../shared/access';
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

const TAG = 'Controls';
const AUTH_ERRORS = { 401: { description: 'No or invalid credentials' }, 403: { description: 'Missing scope' } };

export function controlsRoutes(deps: ServiceDeps, config: EvidenceConfig): Router {
  const service = withTransactional(controlsService({ exchange: config.EVIDENCE_EXCHANGE }), deps.db);
  const router = Router();
  const auth = authenticate(deps.verifyToken);

  router.post('/api/evidence/controls', auth, requireScope('evidence:write'), jsonBody, async (req: Request, res) => {
    const body = assertValid<CreateControlRequest>(createControlRequestSchema, req.body);
    const control = await service.transactional((s) => s.create(body, principalOf(req).sub));
    res.status(201).location(`/api/evidence/controls/${control.control_id}`).json(control);
  });
  deps.openapi.operation('post', '/api/evidence/controls', {
    operationId: 'createControl',
    summary: 'Create a control (version 1)',
    tag: TAG,
    security: { scope: 'evidence:write' },
    requestBody: { contentType: 'application/json', schema: createControlRequestSchema, example: createControlRequestExample },
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
  });

  router.post(
    '/api/evidence/controls/:id/versions',
    auth,
    requireScope('evidence:write'),
    jsonBody,
    async (req: Request<{ id: string }>, res) => {
      const controlId = assertUuidPath(req.params.id, 'control');
      const body = assertValid<CreateVersionRequest>(createVersionRequestSchema, req.body);
      const control = await service.transactional((s) => s.addVersion(controlId, body, principalOf(req).sub));
      res.status(201).location(`/api/evidence/controls/${control.control_id}`).json(control);
    },
  );
  deps.openapi.operation('post', '/api/evidence/controls/{id}/versions', {
    operationId: 'createControlVersion',
    summary: 'Add an immutable new version of a control',
    description:
      'The new version (n+1) takes the fields sent and carries the others over from the current version. Versions are never edited.',
    tag: TAG,
    security: { scope: 'evidence:write' },
    requestBody: {
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
  });

  router.get('/api/evidence/controls', auth, requireAnyScope(...READ_SCOPES), noBody, async (req: Request, res) => {
    const query = parseQuery<ListControlsQuery>(listControlsQuerySchema, req.query as Record<string, unknown>);
    res.json(await service.list(query));
  });
  deps.openapi.operation('get', '/api/evidence/controls', {
    operationId: 'listControls',
    summary: 'List controls by key (keyset pagination)',
    description: `Readable with any of ${READ_SCOPES.join(', ')}.`,
    tag: TAG,
    security: { anyScope: READ_SCOPES },
    parameters: [
      { name: 'limit', in: 'query', schema: listControlsQuerySchema.properties.limit },
      {
        name: 'cursor',
        in: 'query',
        schema: listControlsQuerySchema.properties.cursor,
        description: 'next_cursor of the previous page (opaque)',
      },
    ],
    responses: {
      200: {
        description: 'A page of controls',
        schema: controlListResponseSchema,
        example: { items: [controlExample], next_cursor: null },
      },
      400: { description: 'Bad query parameter' },
      ...AUTH_ERRORS,
    },
  });

  // Before /controls/:id, which would take "due" for an id
  router.get('/api/evidence/controls/due', auth, requireScope('evidence:write'), noBody, async (req: Request, res) => {
    const query = parseQuery<ListControlsQuery>(listControlsQuerySchema, req.query as Record<string, unknown>);
    res.json(await service.due(query, new Date()));
  });
  deps.openapi.operation('get', '/api/evidence/controls/due', {
    operationId: 'listDueControls',
    summary: 'List controls whose current period has no run (by key, keyset pagination)',
    description:
      'The current period of a control is that of its current version’s frequency, in UTC: daily the day, weekly the ISO week (Monday to Sunday), monthly the calendar month, quarterly the calendar quarter, annual the calendar year. A run of any version of the control whose period overlaps it counts. `continuous`, `ad_hoc` and unset frequencies have no period and are never due.',
    tag: TAG,
    security: { scope: 'evidence:write' },
    parameters: [
      { name: 'limit', in: 'query', schema: listControlsQuerySchema.properties.limit },
      {
        name: 'cursor',
        in: 'query',
        schema: listControlsQuerySchema.properties.cursor,
        description: 'next_cursor of the previous page (opaque)',
      },
    ],
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
  });

  router.get('/api/evidence/controls/:id', auth, requireAnyScope(...READ_SCOPES), noBody, async (req: Request<{ id: string }>, res) => {
    res.json(await service.get(assertUuidPath(req.params.id, 'control')));
  });
  deps.openapi.operation('get', '/api/evidence/controls/{id}', {
    operationId: 'getControl',
    summary: 'Read a control with all its versions',
    description: `Readable with any of ${READ_SCOPES.join(', ')}.`,
    tag: TAG,
    security: { anyScope: READ_SCOPES },
    responses: {
      200: { description: 'The control', schema: controlWithVersionsResponseSchema, example: controlWithVersionsExample },
      ...AUTH_ERRORS,
      404: { description: 'No such control' },
    },
  });

  return router;
}
