import type { Router } from 'express';
import { principalOf } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { DECIDE_SCOPE, WRITE_SCOPE } from '../../shared/stage-machine';
import { noteRequestSchema, noteSchema, notesPageSchema, notesQuerySchema, type NoteRequest, type NotesQuery } from './notes-schemas';
import { notesService } from './notes-service';

const noteExample = {
  note_id: '5d6e7f80-91a2-4b3c-8d4e-5f6a7b8c9d0e',
  claim_id: '3f0e6c1a-8d2b-4c55-9a71-0b6f1f2d9e41',
  body: 'Called the body shop: parts arrive Thursday. Estimate at https://shop.example/est/77',
  topic: 'repair',
  corrects: null,
  author: 'adjuster-7',
  created_at: '2026-03-02T10:15:00.000Z',
};

/** POST and GET /api/claims/claims/{id}/notes: internal notes, appended, newest first. */
export function notesRoutes(deps: ServiceDeps, config: ClaimsConfig): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Notes');
  const notes = withTransactional(notesService(config.CLAIMS_EXCHANGE), deps.db);

  defineRoute<{ body: NoteRequest }>({
    method: 'post',
    path: '/api/claims/claims/{id}/notes',
    operationId: 'addClaimNote',
    summary: 'Add an internal note to a claim',
    description:
      'Notes are never edited or deleted: a correction is a new note naming the one it corrects (`corrects`), and both stay. ' +
      'Internal only: nothing of a note reaches the claimant; `claim.note_added` and the audit log carry its id and author, never its text.',
    scopes: [WRITE_SCOPE, DECIDE_SCOPE],
    body: { contentType: 'application/json', schema: noteRequestSchema, example: { body: noteExample.body, topic: 'repair' } },
    responses: {
      201: { description: 'The note', schema: noteSchema, schemaName: 'Note', example: noteExample },
      400: { description: 'Malformed JSON or a schema violation (an empty body, more than 10,000 characters)' },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:write and claims:decide' },
      404: { description: 'No such claim' },
      415: { description: 'Content-Type is not application/json' },
      422: { description: 'corrects names no note of this claim' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { body }) => {
      const caller = principalOf(req);
      res.status(201).json(await notes.transactional((s) => s.add(String(req.params.id), body, caller)));
    },
  });

  defineRoute<{ query: NotesQuery }>({
    method: 'get',
    path: '/api/claims/claims/{id}/notes',
    operationId: 'listClaimNotes',
    summary: "A claim's notes, newest first, cursor-paged",
    scopes: ['claims:read'],
    query: notesQuerySchema,
    responses: {
      200: { description: 'A page of notes', schema: notesPageSchema, example: { items: [noteExample], next_cursor: null } },
      400: { description: 'An unknown or malformed query parameter, or a cursor this service did not issue' },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:read' },
      404: { description: 'No such claim' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { query }) => {
      res.json(await notes.transactional((s) => s.list(String(req.params.id), query)));
    },
  });
  return router;
}
