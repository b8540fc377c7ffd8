import type { Express } from 'express';
import request from 'supertest';
import { MAX_JSON_DEPTH, jsonBody, noBody } from './body';
import { createLogger, createMetrics } from './observability';
import { problems } from './problem';
import { Lifecycle, createServiceApp, finishApp } from './service-app';
import { assertValid, parseQuery } from './validation';

const itemSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'email'],
  properties: {
    name: { type: 'string', minLength: 1 },
    email: { type: 'string', format: 'email' },
    loss: {
      type: 'object',
      additionalProperties: false,
      required: ['date'],
      properties: { date: { type: 'string', format: 'date' } },
    },
  },
};

const querySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    ratio: { type: 'number' },
    open: { type: 'boolean' },
    stage: { type: 'array', items: { type: 'string' } },
    q: { type: 'string' },
    from: { type: 'string', format: 'date-time' },
    on: { type: 'string', format: 'date' },
  },
};

const PROBLEM_TYPE = /^application\/problem\+json/;

function buildApp(readiness: { ok: boolean; hang?: boolean }, lifecycle: Lifecycle): Express {
  const app = createServiceApp({
    logger: createLogger('http-test'),
    metrics: createMetrics('http-test'),
    lifecycle,
    readiness: {
      database: async () => {
        if (readiness.hang) await new Promise(() => undefined);
        if (!readiness.ok) throw new Error('connect ECONNREFUSED');
      },
    },
  });
  app.post('/items', jsonBody, (req, res) => {
    res.status(201).json(assertValid(itemSchema, req.body));
  });
  app.post('/echo', jsonBody, (req, res) => {
    res.json(req.body);
  });
  app.get('/things/:id', (req, res) => {
    res.json({ id: req.params.id });
  });
  app.post('/actions/close', noBody, (_req, res) => {
    res.status(204).end();
  });
  app.get('/search', (req, res) => {
    res.json(parseQuery(querySchema, req.query as Record<string, unknown>));
  });
  app.get('/conflict', () => {
    throw problems.conflict('The claim is closed');
  });
  app.get('/boom', async () => {
    throw new Error('secret internals: password=hunter2');
  });
  app.get('/db-down', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:5432'), { code: 'ECONNREFUSED' });
  });
  app.get('/db-terminated', async () => {
    throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  });
  app.get('/pool-timeout', async () => {
    const error = new Error('Knex: Timeout acquiring a connection. The pool is probably full.');
    error.name = 'KnexTimeoutError';
    throw error;
  });
  return finishApp(app, createLogger('http-test'));
}

describe('http kit', () => {
  const readiness: { ok: boolean; hang?: boolean } = { ok: true };
  const lifecycle = new Lifecycle();
  const app = buildApp(readiness, lifecycle);

  describe('problem bodies', () => {
    it('carry type, title, status, detail, instance and request_id as application/problem+json', async () => {
      const response = await request(app).get('/conflict?x=1').set('X-Request-Id', 'req-12345678').expect(409);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body).toEqual({
        type: 'https://errors.claims-platform.dev/conflict',
        title: 'Conflict',
        status: 409,
        detail: 'The claim is closed',
        instance: '/conflict',
        request_id: 'req-12345678',
      });
    });

    it('answers an unknown route with a 404 problem', async () => {
      const response = await request(app).get('/nowhere').expect(404);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body).toMatchObject({ status: 404, instance: '/nowhere', request_id: response.headers['x-request-id'] });
    });

    it('turns an unknown thrown error into a 500 problem that does not leak its message', async () => {
      const response = await request(app).get('/boom').expect(500);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body).toMatchObject({ type: 'https://errors.claims-platform.dev/internal', status: 500, instance: '/boom' });
      expect(response.text).not.toContain('hunter2');
      expect(response.text).not.toContain('secret internals');
    });

    it.each(['/db-down', '/db-terminated', '/pool-timeout'])(
      'turns an unreachable database (%s) into 503 with Retry-After',
      async (path) => {
        const response = await request(app).get(path).expect(503);
        expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
        expect(response.body).toMatchObject({ type: 'https://errors.claims-platform.dev/service-unavailable', status: 503 });
        expect(response.text).not.toContain('10.0.0.1');
      },
    );
  });

  describe('JSON bodies', () => {
    it('refuses a body that is not JSON with 415', async () => {
      const response = await request(app).post('/items').set('Content-Type', 'text/plain').send('name=x').expect(415);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body).toMatchObject({ status: 415, type: 'https://errors.claims-platform.dev/unsupported-media-type' });
    });

    it('refuses a form-encoded body with 415', async () => {
      await request(app).post('/items').type('form').send({ name: 'x', email: 'a@b.co' }).expect(415);
    });

    it('refuses a request with no body and no Content-Type with 415', async () => {
      await request(app).post('/items').expect(415);
    });

    it('refuses malformed JSON with 400', async () => {
      const response = await request(app).post('/items').set('Content-Type', 'application/json').send('{"name": "x",').expect(400);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body).toMatchObject({ status: 400, type: 'https://errors.claims-platform.dev/malformed-json', instance: '/items' });
    });

    it('refuses a body over 1 MiB with 413', async () => {
      const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024), email: 'a@b.co' });
      const response = await request(app).post('/items').set('Content-Type', 'application/json').send(big).expect(413);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body).toMatchObject({ status: 413, type: 'https://errors.claims-platform.dev/payload-too-large' });
    });

    it('accepts a body just under 1 MiB', async () => {
      const name = 'x'.repeat(1024 * 1024 - 100);
      const response = await request(app)
        .post('/items')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name, email: 'a@b.co' }));
      expect(response.status).toBe(201);
    });

    it('accepts application/*+json and a charset parameter', async () => {
      await request(app)
        .post('/items')
        .set('Content-Type', 'application/merge-patch+json')
        .send(JSON.stringify({ name: 'x', email: 'a@b.co' }))
        .expect(201);
      await request(app)
        .post('/items')
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ name: 'x', email: 'a@b.co' }))
        .expect(201);
    });

    it.each([
      ['a lone high surrogate in a value', '{"name":"x\\ud800","email":"a@b.co"}', '/name'],
      ['a lone low surrogate in a nested value', '{"name":"x","email":"a@b.co","tags":["ok","\\udc00y"]}', '/tags/1'],
      ['a NUL character', '{"name":"x\\u0000y","email":"a@b.co"}', '/name'],
      ['a lone surrogate in a key', '{"name":"x","email":"a@b.co","\\ud83d":1}', '/\ud83d'],
    ])('refuses text PostgreSQL cannot store with 400 naming its pointer: %s', async (_what, body, pointer) => {
      const response = await request(app).post('/items').set('Content-Type', 'application/json').send(body).expect(400);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body.errors).toEqual([{ pointer, message: 'must be well-formed Unicode text without NUL characters' }]);
    });

    it('survives a deeply nested body (no stack overflow while checking its text)', async () => {
      const deep = `${'['.repeat(200000)}${']'.repeat(200000)}`;
      const response = await request(app).post('/items').set('Content-Type', 'application/json').send(deep);
      expect(response.status).toBe(400);
      await request(app)
        .post('/items')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: 'x', email: 'a@b.co' }))
        .expect(201);
    });

    it('accepts well-formed text outside the Basic Multilingual Plane', async () => {
      await request(app)
        .post('/items')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: 'Zoë 🚗 \ud83d\ude97', email: 'a@b.co' }))
        .expect(201);
    });

    it('refuses an empty JSON body with 400', async () => {
      const response = await request(app).post('/items').set('Content-Type', 'application/json').send('').expect(400);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
    });

    it('refuses any body sent to an operation that takes none with 400 — JSON (even an empty object) or not — and accepts none', async () => {
      for (const [type, body] of [
        ['application/json', '{"__invalid":true}'],
        ['application/json', '{}'],
        ['text/plain', 'hello'],
      ]) {
        const response = await request(app).post('/actions/close').set('Content-Type', type).send(body).expect(400);
        expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
        expect(response.body.detail).toMatch(/takes no body/);
      }
      await request(app).post('/actions/close').expect(204);
    });

    it('refuses a body sent with GET to any route of the skeleton with 400, before the route runs, and closes the connection', async () => {
      for (const path of ['/things/abc', '/healthz', '/no-such-route']) {
        const response = await request(app).get(path).set('Content-Type', 'application/json').send('{"__invalid":true}').expect(400);
        expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
        expect(response.headers.connection).toBe('close');
        expect(response.body.detail).toMatch(/takes no body/);
      }
      await request(app).get('/things/abc').expect(200);
    });

    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

    it(`accepts nesting up to ${MAX_JSON_DEPTH} levels and refuses one more with 400 naming where`, async () => {
      await request(app).post('/echo').set('Content-Type', 'application/json').send(nested(MAX_JSON_DEPTH)).expect(200);
      const response = await request(app)
        .post('/echo')
        .set('Content-Type', 'application/json')
        .send(`{"a":[{"b":${nested(MAX_JSON_DEPTH - 2)}}]}`)
        .expect(400);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body.errors).toEqual([
        { pointer: `/a/0/b${'/0'.repeat(MAX_JSON_DEPTH - 3)}`, message: `nests deeper than ${MAX_JSON_DEPTH} levels` },
      ]);
    });

    it('refuses 500,000 nested brackets from the raw text, before JSON.parse ever sees them', async () => {
      const hostile = '['.repeat(500000);
      const parse = jest.spyOn(JSON, 'parse');
      try {
        const response = await request(app).post('/items').set('Content-Type', 'application/json').send(hostile).expect(400);
        expect(response.body).toMatchObject({
          type: 'https://errors.claims-platform.dev/validation',
          errors: [{ message: `nests deeper than ${MAX_JSON_DEPTH} levels` }],
        });
        expect(parse.mock.calls.some(([text]) => typeof text === 'string' && text.length >= hostile.length)).toBe(false);
      } finally {
        parse.mockRestore();
      }
    });

    it('does not count brackets inside strings, escaped quotes included', async () => {
      const name = `"\\${'['.repeat(MAX_JSON_DEPTH * 2)}\\"{{`;
      const response = await request(app)
        .post('/items')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name, email: 'a@b.co' }))
        .expect(201);
      expect(response.body.name).toBe(name);
    });

    it.each([
      ['a top-level integer', '12345678901234567890', '/'],
      ['an integer member', '{"n":12345678901234567890}', '/n'],
      ['a negative integer in an array', '{"a":[1,-9007199254740992]}', '/a/1'],
      ['an integer after an escaped key', '{"x\\"y":{"k/~":[0,{"m":99999999999999999999999}]}}', '/x"y/k~1~0/1/m'],
    ])('refuses an integer JSON numbers cannot hold exactly with 400 naming its pointer: %s', async (_what, body, pointer) => {
      const response = await request(app).post('/echo').set('Content-Type', 'application/json').send(body).expect(400);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body.errors).toEqual([{ pointer, message: expect.stringMatching(/^is an integer beyond ±9007199254740991/) }]);
    });

    it('keeps safe integers, decimals, exponents and digits inside strings as they are', async () => {
      const body = '{"max":9007199254740991,"min":-9007199254740991,"d":12345678901234567890.5,"e":1e300,"s":"12345678901234567890"}';
      const response = await request(app).post('/echo').set('Content-Type', 'application/json').send(body).expect(200);
      expect(response.body).toEqual(JSON.parse(body));
    });

    it('refuses an unsupported charset with 415', async () => {
      await request(app).post('/items').set('Content-Type', 'application/json; charset=latin-9').send('{}').expect(415);
    });
  });

  describe('schema violations', () => {
    it('name an unknown field by its pointer', async () => {
      const response = await request(app).post('/items').send({ name: 'x', email: 'a@b.co', admin: true }).expect(400);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body.type).toBe('https://errors.claims-platform.dev/validation');
      expect(response.body.errors).toEqual([{ pointer: '/admin', message: 'is not an accepted field' }]);
    });

    it('name a missing field, also inside a nested object', async () => {
      const response = await request(app).post('/items').send({ email: 'a@b.co', loss: {} }).expect(400);
      expect(response.body.errors).toEqual(
        expect.arrayContaining([
          { pointer: '/name', message: 'is required' },
          { pointer: '/loss/date', message: 'is required' },
        ]),
      );
      expect(response.body.detail).toMatch(/is required/);
    });

    it('name a badly formatted field', async () => {
      const response = await request(app)
        .post('/items')
        .send({ name: 'x', email: 'not-an-email', loss: { date: '2026-02-30' } })
        .expect(400);
      const pointers = response.body.errors.map((e: { pointer: string }) => e.pointer).sort();
      expect(pointers).toEqual(['/email', '/loss/date']);
      expect(response.body.errors[0].message).toMatch(/format/);
    });

    it('escapes "/" and "~" in the pointer of an unknown field (RFC 6901)', async () => {
      const response = await request(app).post('/items').send({ name: 'x', email: 'a@b.co', 'a/b~c': 1 }).expect(400);
      expect(response.body.errors).toEqual([{ pointer: '/a~1b~0c', message: 'is not an accepted field' }]);
    });

    it.each([
      ['an override', 'invoice \u202Egnp.exe'],
      ['an embedding', 'a\u202Ab'],
      ['an isolate', 'a\u2066b\u2069'],
    ])('refuse free text holding a bidirectional control (%s), naming its pointer', async (_what, name) => {
      const response = await request(app).post('/items').send({ name, email: 'a@b.co' }).expect(400);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body.errors).toEqual([{ pointer: '/name', message: expect.stringContaining('bidirectional control') }]);
    });

    it('keep direction marks and joiners, which right-to-left names and emoji need', async () => {
      const name = '\u200Fשרה\u200E 👩\u200D💻';
      const response = await request(app).post('/items').send({ name, email: 'a@b.co' }).expect(201);
      expect(response.body.name).toBe(name);
    });

    it('refuses a body that is not an object', async () => {
      const response = await request(app).post('/items').set('Content-Type', 'application/json').send('[1,2]').expect(400);
      expect(response.body.errors).toEqual([{ pointer: '/', message: 'must be object' }]);
    });
  });

  describe('parseQuery', () => {
    it('coerces query strings to the declared types', async () => {
      const response = await request(app).get('/search?limit=10&ratio=-1.5&open=false&stage=intake&q=abc').expect(200);
      expect(response.body).toEqual({ limit: 10, ratio: -1.5, open: false, stage: ['intake'], q: 'abc' });
    });

    it('keeps repeated array parameters as arrays', async () => {
      const response = await request(app).get('/search?stage=intake&stage=triage').expect(200);
      expect(response.body).toEqual({ stage: ['intake', 'triage'] });
    });

    it.each([
      ['an unknown parameter', 'foo=1', '/foo'],
      ['a non-numeric integer', 'limit=ten', '/limit'],
      ['a fractional integer', 'limit=1.5', '/limit'],
      ['an out-of-range integer', 'limit=1000', '/limit'],
      ['a non-boolean boolean', 'open=yes', '/open'],
      ['a repeated scalar', 'q=a&q=b', '/q'],
      ['a nested object', 'q[a]=1', '/q'],
    ])('refuses %s with 400 naming the parameter', async (_what, query, pointer) => {
      const response = await request(app).get(`/search?${query}`).expect(400);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
      expect(response.body.detail).toMatch(/^Query: /);
    });
  });

  describe('timestamps PostgreSQL cannot store', () => {
    it.each([
      ['an offset beyond -15:59', 'from=2026-01-01T00:00:00-16:00', '/from'],
      ['an offset of +20:00', 'from=2026-01-01T00:00:00%2B20:00', '/from'],
      ['an offset minute of 60', 'from=2026-01-01T00:00:00%2B15:60', '/from'],
      ['an impossible date in a timestamp', 'from=2026-02-30T00:00:00Z', '/from'],
      ['year 0000 in a timestamp', 'from=0000-01-01T00:00:00Z', '/from'],
      ['a leap second', 'from=2026-06-30T23:59:60Z', '/from'],
      ['a fraction beyond nanoseconds', `from=2026-01-01T00:00:00.${'1'.repeat(10)}Z`, '/from'],
      ['an impossible date', 'on=2026-02-29', '/on'],
      ['year 0000', 'on=0000-01-01', '/on'],
    ])('refuses %s with 400 naming the parameter', async (_what, query, pointer) => {
      const response = await request(app).get(`/search?${query}`).expect(400);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
    });

    it.each([
      'from=2026-01-01T00:00:00%2B15:59&on=2024-02-29',
      'from=2026-01-01T00:00:00-15:59',
      'from=0001-01-01T00:00:00.123456789Z&on=0001-01-01',
      'from=9999-12-31t23:59:59z&on=9999-12-31',
      'from=2026-01-01%2010:00:00%2B05:30',
    ])('accepts %s', async (query) => {
      await request(app).get(`/search?${query}`).expect(200);
    });
  });

  describe('text PostgreSQL cannot store in the URL', () => {
    it.each([
      ['a NUL in a query value', '/search?q=a%00b', '/q'],
      ['a NUL in a query key', '/search?a%00=1', '/a\u0000'],
      ['a NUL in a nested query value', '/search?q[x]=%00', '/q/x'],
    ])('refuses %s with 400 naming it, before any handler runs', async (_what, url, pointer) => {
      const response = await request(app).get(url).expect(400);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body.errors).toEqual([{ pointer, message: 'must be well-formed Unicode text without NUL characters' }]);
    });

    it('refuses a NUL in a path segment with 400', async () => {
      const response = await request(app).get('/things/ab%00cd').expect(400);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body.detail).toMatch(/path holds text that cannot be stored/);
      await request(app).get('/things/ab%20cd').expect(200, { id: 'ab cd' });
    });
  });

  describe('X-Request-Id', () => {
    it('keeps a well-formed incoming id and echoes it', async () => {
      const response = await request(app).get('/healthz').set('X-Request-Id', 'abc-1234_5678.9:0').expect(200);
      expect(response.headers['x-request-id']).toBe('abc-1234_5678.9:0');
    });

    it.each(['short', 'has spaces in it', 'x'.repeat(129), 'bad\u00e9chars-123'])(
      'replaces a malformed id (%s) with a new one',
      async (id) => {
        const response = await request(app).get('/nowhere').set('X-Request-Id', id).expect(404);
        const issued = response.headers['x-request-id'];
        expect(issued).not.toBe(id);
        expect(issued).toMatch(/^[0-9a-f-]{36}$/);
        expect(response.body.request_id).toBe(issued);
      },
    );

    it('issues an id when none is sent', async () => {
      const response = await request(app).get('/healthz').expect(200);
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('/readyz', () => {
    afterEach(() => {
      readiness.ok = true;
      readiness.hang = false;
      lifecycle.draining = false;
    });

    it('is 200 when every check passes', async () => {
      const response = await request(app).get('/readyz').expect(200);
      expect(response.body).toEqual({ status: 'ready', checks: { database: 'ok' } });
    });

    it('is 503 with Retry-After when a check fails', async () => {
      readiness.ok = false;
      const response = await request(app).get('/readyz').expect(503);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.headers['retry-after']).toBeDefined();
      expect(response.body).toMatchObject({ status: 503, checks: { database: expect.any(String) } });
      expect(response.body.checks.database).not.toBe('ok');
    });

    it('is 503 within a few seconds when a check hangs, never a hang itself', async () => {
      readiness.hang = true;
      const started = Date.now();
      const response = await request(app).get('/readyz').expect(503);
      expect(Date.now() - started).toBeLessThan(4000);
      expect(response.body.checks.database).toMatch(/timed out/);
    });

    it('is 503 while draining even though every check passes', async () => {
      lifecycle.draining = true;
      const response = await request(app).get('/readyz').expect(503);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body).toMatchObject({ status: 503, detail: 'Shutting down' });
      await request(app).get('/healthz').expect(200);
    });
  });

  describe('first steps (one layer before the routes)', () => {
    function appWithSteps(steps: Parameters<typeof createServiceApp>[0]['firstSteps'], seen: string[]): Express {
      const app = createServiceApp({
        logger: createLogger('steps-test'),
        metrics: createMetrics('steps-test'),
        readiness: {},
        firstSteps: steps,
      });
      app.get('/api/things', (req, res) => {
        seen.push('route');
        res.json({ id: req.id });
      });
      return finishApp(app, createLogger('steps-test'));
    }

    it('runs each step in order after the shared ones, then the routes', async () => {
      const seen: string[] = [];
      const app = appWithSteps(
        [
          (req, _res, next) => {
            seen.push(`first ${req.id ? 'after request id' : 'without request id'}`);
            next();
          },
          (_req, _res, next) => {
            seen.push('second');
            setImmediate(next);
          },
        ],
        seen,
      );
      const response = await request(app).get('/api/things').expect(200);
      expect(seen).toEqual(['first after request id', 'second', 'route']);
      expect(response.body.id).toBe(response.headers['x-request-id']);
    });

    it.each([
      ['passes an error to next', (_req: unknown, _res: unknown, next: (error?: unknown) => void) => next(problems.forbidden('no'))],
      [
        'throws',
        () => {
          throw problems.forbidden('no');
        },
      ],
      [
        'returns a rejected promise',
        async () => {
          throw problems.forbidden('no');
        },
      ],
    ])('a step that %s skips the rest and answers with the error as a problem', async (_what, failing) => {
      const seen: string[] = [];
      const app = appWithSteps(
        [
          failing as never,
          (_req, _res, next) => {
            seen.push('after');
            next();
          },
        ],
        seen,
      );
      const response = await request(app).get('/api/things').expect(403);
      expect(response.headers['content-type']).toMatch(PROBLEM_TYPE);
      expect(response.body).toMatchObject({ status: 403, detail: 'no' });
      expect(seen).toEqual([]);
    });

    it('a step that answers ends the request: no later step or route runs', async () => {
      const seen: string[] = [];
      const app = appWithSteps(
        [
          (_req, res) => void res.status(202).json({ answered: true }),
          (_req, _res, next) => {
            seen.push('after');
            next();
          },
        ],
        seen,
      );
      await request(app).get('/api/things').expect(202, { answered: true });
      expect(seen).toEqual([]);
    });

    it.each([
      ['/api/things', 'no-store'],
      ['/API/things', 'no-store'],
      ['/api?x=1', 'no-store'],
      ['/api', 'no-store'],
      ['/apix', undefined],
      ['/healthz', undefined],
    ])('%s is answered with Cache-Control %s', async (path, cacheControl) => {
      const response = await request(appWithSteps([], [])).get(path);
      expect(response.headers['cache-control']).toBe(cacheControl);
    });
  });
});
