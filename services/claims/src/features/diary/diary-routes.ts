import type { Router } from 'express';
import { principalOf } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { DECIDE_SCOPE, WRITE_SCOPE } from '../../shared/stage-machine';
import {
  activityRequestSchema,
  activitySchema,
  claimActivitiesSchema,
  diaryPageSchema,
  diaryQuerySchema,
  reassignRequestSchema,
  type ActivityRequest,
  type DiaryQuery,
  type ReassignRequest,
} from './diary-schemas';
import { diaryService } from './diary-service';

const activityExample = {
  activity_id: '6e7f8091-a2b3-4c4d-9e5f-6a7b8c9d0e1f',
  claim_id: '3f0e6c1a-8d2b-4c55-9a71-0b6f1f2d9e41',
  kind: 'manual',
  subject: 'Call the body shop about the parts',
  due_on: '2026-03-04',
  priority: 'normal',
  assignee: 'adjuster-7',
  created_by: 'adjuster-7',
  created_at: '2026-03-02T10:15:00.000Z',
  completed_by: null,
  completed_at: null,
};
const writes = {
  400: { description: 'Malformed JSON or a schema violation' },
  401: { description: 'No credentials, or credentials that do not verify' },
  403: { description: 'The caller lacks claims:write and claims:decide' },
  404: { description: 'No such claim (or activity on it)' },
  415: { description: 'Content-Type is not application/json' },
  503: { description: 'The database is unavailable' },
};

/** The diary: POST …/activities, …/complete, …/reassign, and GET /api/claims/activities (my diary across claims). */
export function diaryRoutes(deps: ServiceDeps, config: ClaimsConfig): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Diary');
  const diary = withTransactional(diaryService(config.CLAIMS_EXCHANGE), deps.db);

  defineRoute<{ body: ActivityRequest }>({
    method: 'post',
    path: '/api/claims/claims/{id}/activities',
    operationId: 'createClaimActivity',
    summary: "Add an activity to a claim's diary",
    description: 'Assigned to `assignee`, or to the caller when omitted. Publishes `claim.activity_changed` (never the subject).',
    scopes: [WRITE_SCOPE, DECIDE_SCOPE],
    body: {
      contentType: 'application/json',
      schema: activityRequestSchema,
      example: { subject: activityExample.subject, due_on: activityExample.due_on, priority: 'normal' },
    },
    responses: {
      201: { description: 'The activity', schema: activitySchema, schemaName: 'Activity', example: activityExample },
      ...writes,
    },
    handler: async (req, res, { body }) => {
      const caller = principalOf(req);
      res.status(201).json(await diary.transactional((s) => s.create(String(req.params.id), body, caller)));
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/claims/claims/{id}/activities',
    operationId: 'listClaimActivities',
    summary: "A claim's diary: its open activities earliest due first, then the completed ones",
    scopes: ['claims:read'],
    responses: {
      200: { description: "The claim's activities", schema: claimActivitiesSchema, example: { items: [activityExample] } },
      400: { description: 'A body was sent' },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:read' },
      404: { description: 'No such claim' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res) => {
      res.json({ items: await diary.transactional((s) => s.ofClaim(String(req.params.id))) });
    },
  });

  defineRoute({
    method: 'post',
    path: '/api/claims/claims/{id}/activities/{activity_id}/complete',
    operationId: 'completeClaimActivity',
    summary: 'Complete an activity',
    scopes: [WRITE_SCOPE, DECIDE_SCOPE],
    responses: {
      200: {
        description: 'The activity, completed',
        schema: activitySchema,
        schemaName: 'Activity',
        example: { ...activityExample, completed_by: 'adjuster-7', completed_at: '2026-03-03T09:00:00.000Z' },
      },
      ...writes,
      400: { description: 'A body was sent' },
      409: { description: 'Already completed' },
    },
    handler: async (req, res) => {
      const caller = principalOf(req);
      res.json(await diary.transactional((s) => s.complete(String(req.params.id), String(req.params.activity_id), caller)));
    },
  });

  defineRoute<{ body: ReassignRequest }>({
    method: 'post',
    path: '/api/claims/claims/{id}/activities/{activity_id}/reassign',
    operationId: 'reassignClaimActivity',
    summary: 'Give an open activity to someone else',
    scopes: [WRITE_SCOPE, DECIDE_SCOPE],
    body: { contentType: 'application/json', schema: reassignRequestSchema, example: { assignee: 'adjuster-9' } },
    responses: {
      200: {
        description: 'The activity, reassigned',
        schema: activitySchema,
        schemaName: 'Activity',
        example: { ...activityExample, assignee: 'adjuster-9' },
      },
      ...writes,
      409: { description: 'The activity is completed' },
    },
    handler: async (req, res, { body }) => {
      const caller = principalOf(req);
      res.json(await diary.transactional((s) => s.reassign(String(req.params.id), String(req.params.activity_id), body, caller)));
    },
  });

  defineRoute<{ query: DiaryQuery }>({
    method: 'get',
    path: '/api/claims/activities',
    operationId: 'listMyActivities',
    summary: 'My diary: my open activities across claims, earliest due first',
    description: '`assignee=me` (required); `due=overdue|today|week` counts days in UTC. Cursor-paged.',
    scopes: [WRITE_SCOPE, DECIDE_SCOPE],
    query: diaryQuerySchema,
    responses: {
      200: {
        description: 'A page of my open activities',
        schema: diaryPageSchema,
        example: { items: [activityExample], next_cursor: null },
      },
      400: { description: 'A missing or unknown query parameter, or a cursor this service did not issue' },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:write and claims:decide' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { query }) => {
      const caller = principalOf(req);
      res.json(await diary.transactional((s) => s.myDiary(query, caller)));
    },
  });
  return router;
}
