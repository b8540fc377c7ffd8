import type { RequestHandler } from 'express';
import request from 'supertest';
import { OpenApiDocument } from './openapi';
import { createLogger, createMetrics } from './observability';
import { problems } from './problem';
import { routeTable } from './routes';
import { createServiceApp, finishApp } from './service-app';

const noteSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['body'],
  properties: { body: { type: 'string', minLength: 1 } },
} as const;
const pageQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: { type: 'integer', minimum: 1, description: 'At most this many' } },
} as const;

/** A stand-in for the service's JWT check: the caller's scopes are the `x-scopes` header. */
const requireScopes = (scopes: readonly string[]): RequestHandler[] => [
  (req, _res, next) =>
    next(
      scopes.some((scope) => req.get('x-scopes')?.split(' ').includes(scope))
        ? undefined
        : problems.forbidden('The caller lacks the scope'),
    ),
];

function notesApp() {
  const openapi = new OpenApiDocument({ title: 'Notes', version: '1', description: 'Notes' }, '/api/notes', { Notes: 'Notes' });
  const { router, defineRoute } = routeTable({ openapi, requireScopes, tag: 'Notes' });
  defineRoute<{ body: { body: string } }>({
    method: 'post',
    path: '/api/notes/claims/{id}/notes',
    operationId: 'addNote',
    summary: 'Add a note',
    scopes: ['claims:write'],
    body: { contentType: 'application/json', schema: noteSchema, example: { body: 'Called' } },
    responses: { 201: { description: 'The note', schema: noteSchema, example: { body: 'Called' } } },
    handler: (req, res, { body }) => res.status(201).json({ claim: req.params.id, ...body }),
  });
  defineRoute<{ query: { limit?: number } }>({
    method: 'get',
    path: '/api/notes/claims/{id}/notes',
    operationId: 'listNotes',
    summary: 'List notes',
    caller: 'public',
    query: pageQuerySchema,
    aliases: ['/api/notes/old/{id}/notes'],
    responses: { 200: { description: 'The page', schema: { type: 'object' }, example: {} } },
    handler: (req, res, { query }) => res.json({ claim: req.params.id, query }),
  });
  const logger = createLogger('routes-test');
  const app = createServiceApp({ logger, metrics: createMetrics('routes-test'), readiness: {} });
  app.use(router);
  return { app: finishApp(app, logger), document: openapi.toJSON() as { paths: Record<string, Record<string, Record<string, unknown>>> } };
}

describe('defineRoute: one declaration is both the Express route and its OpenAPI operation', () => {
  const { app, document } = notesApp();

  it('admits a caller only with a declared scope, then reads the JSON body and validates it against its schema', async () => {
    const path = '/api/notes/claims/c1/notes';
    await request(app).post(path).send({ body: 'Called' }).expect(403);
    await request(app).post(path).set('x-scopes', 'claims:write').send({ body: '' }).expect(400);
    await request(app).post(path).set('x-scopes', 'claims:write').set('content-type', 'text/plain').send('Called').expect(415);
    const created = await request(app).post(path).set('x-scopes', 'claims:write').send({ body: 'Called' }).expect(201);
    expect(created.body).toEqual({ claim: 'c1', body: 'Called' });
  });

  it('parses the query to the types of its schema, refuses an unknown parameter, and serves the aliases too', async () => {
    expect((await request(app).get('/api/notes/claims/c1/notes?limit=5').expect(200)).body).toEqual({ claim: 'c1', query: { limit: 5 } });
    await request(app).get('/api/notes/claims/c1/notes?limit=0').expect(400);
    await request(app).get('/api/notes/claims/c1/notes?sort=x').expect(400);
    await request(app).get('/api/notes/old/c1/notes').expect(200);
  });

  it('documents the same operation: OpenAPI path, security from the scopes, the query schema as parameters, the tag of the table; aliases stay out', () => {
    expect(Object.keys(document.paths)).toEqual(['/claims/{id}/notes']);
    const { post, get } = document.paths['/claims/{id}/notes'];
    expect(post).toMatchObject({ operationId: 'addNote', tags: ['Notes'], security: [{ bearerJwt: ['claims:write'] }] });
    expect(post.requestBody).toMatchObject({ content: { 'application/json': { example: { body: 'Called' } } } });
    expect(get).toMatchObject({ operationId: 'listNotes', security: [] });
    expect(get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'limit', in: 'query', schema: pageQuerySchema.properties.limit, description: 'At most this many' },
    ]);
  });
});
