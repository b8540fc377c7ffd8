import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compile, OpenApiDocument } from '@platform/http';
import { platformDocuments } from '../scripts/api-documents';
import { startGateway } from '../gateway/src/gateway';
import { startFakeUpstream, testGatewayConfig } from '../gateway/src/gateway-test-kit';

type Operation = {
  operationId?: string;
  tags?: string[];
  requestBody?: { content: Record<string, { schema?: unknown; example?: unknown }> };
  responses: Record<
    string,
    { $ref?: string; content?: Record<string, { schema?: unknown; example?: unknown }>; headers?: Record<string, unknown> }
  >;
};
type Document = {
  jsonSchemaDialect?: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object>; responses?: Record<string, Operation['responses'][string]> };
};

function operationsOf(document: Document): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]),
  );
}

function resolve<T>(document: Document, value: T | { $ref: string }): T {
  const ref = (value as { $ref?: string }).$ref;
  if (!ref) return value as T;
  const [, , section, name] = ref.split('/');
  return (document.components as unknown as Record<string, Record<string, T>>)[section][name];
}

/** A component schema as a schema of its own: its references into itself are relative to it again. */
function standalone(schema: object, ref: string | undefined): object {
  if (!ref) return schema;
  return JSON.parse(JSON.stringify(schema).split(`"${ref}/`).join('"#/'));
}

/** What is wrong with the document for a client developer; empty when nothing is. */
function contractGaps(document: Document, { validateExamples }: { validateExamples: boolean }): string[] {
  const gaps: string[] = [];
  if (document.jsonSchemaDialect !== undefined) gaps.push('states a jsonSchemaDialect (Swagger UI refuses it; the OAS default is right)');
  const checkExample = (where: string, media: { schema?: unknown; example?: unknown }) => {
    if (media.example === undefined) return gaps.push(`${where} has no example`);
    if (!validateExamples || (typeof media.example === 'string' && !(media.schema as { $ref?: string })?.$ref)) return; // a binary body
    const validate = compile(standalone(resolve(document, media.schema as object), (media.schema as { $ref?: string })?.$ref));
    if (!validate(media.example)) gaps.push(`${where}: the example does not match its schema: ${JSON.stringify(validate.errors?.[0])}`);
  };
  for (const [name, op] of operationsOf(document)) {
    if (!op.operationId || !/^[a-z][a-zA-Z0-9]*$/.test(op.operationId)) gaps.push(`${name} has no camelCase operationId`);
    if (op.tags?.length !== 1) gaps.push(`${name} has ${op.tags?.length ?? 0} tags, not one`);
    for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) checkExample(`${name} request body (${type})`, media);
    const statuses = Object.keys(op.responses).map(Number);
    if (!statuses.some((status) => status >= 400 && status < 500)) gaps.push(`${name} documents no problem response`);
    for (const [status, reference] of Object.entries(op.responses)) {
      const response = resolve(document, reference);
      for (const [type, media] of Object.entries(response.content ?? {})) {
        if (Number(status) >= 400) {
          if (type !== 'application/problem+json') gaps.push(`${name} ${status} is ${type}, not problem+json`);
        } else if (type.endsWith('json')) checkExample(`${name} ${status} (${type})`, media);
      }
      if ((status === '429' || status === '503') && !response.headers?.['Retry-After'])
        gaps.push(`${name} ${status} has no Retry-After header`);
    }
  }
  return gaps;
}

describe('the OpenAPI documents a client developer works from', () => {
  let documents: Record<'claims' | 'evidence' | 'platform', Document>;
  beforeAll(async () => {
    documents = (await platformDocuments()) as typeof documents;
  });

  it('lints with no error or warning under Redocly’s plain `recommended` rules and Spectral’s stock `spectral:oas`, each document as the gateway serves it to a client (/openapi.json, /docs/claims.json, /docs/evidence.json)', async () => {
    // The gateway merges what the services serve: here stand-ins serving the services' own documents.
    const claims = await startFakeUpstream({ document: documents.claims });
    const evidence = await startFakeUpstream({ document: documents.evidence });
    const gateway = await startGateway(testGatewayConfig({ CLAIMS_URL: claims.url, EVIDENCE_URL: evidence.url }));
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
    try {
      const served = ['openapi.json', 'docs/claims.json', 'docs/evidence.json'];
      for (const document of served) {
        const response = await fetch(`${gateway.url}/${document}`);
        expect(response.status).toBe(200);
        writeFileSync(path.join(dir, path.basename(document)), await response.text());
      }
      const result = spawnSync(
        path.resolve(__dirname, '../node_modules/.bin/redocly'),
        ['lint', '--extends', 'recommended', ...served.map((document) => path.basename(document))],
        {
          cwd: dir,
          encoding: 'utf8',
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      );
      const output = result.stdout + result.stderr;
      expect(output).not.toMatch(/You have \d+ (warning|error)/);
      expect(output).toMatch(/Your API descriptions are valid/);
      for (const document of served) expect(output).toContain(`validating ${path.basename(document)}`);
      expect(result.status).toBe(0);

      // the stock ruleset, nothing overridden (the repository's .spectral.yaml only extends it)
      writeFileSync(path.join(dir, 'stock.spectral.yaml'), 'extends:\n  - spectral:oas\n');
      const spectral = spawnSync(
        path.resolve(__dirname, '../node_modules/.bin/spectral'),
        [
          'lint',
          '--ruleset',
          'stock.spectral.yaml',
          '--fail-severity',
          'hint',
          '--format',
          'text',
          ...served.map((document) => path.basename(document)),
        ],
        { cwd: dir, encoding: 'utf8' },
      );
      expect(spectral.stdout + spectral.stderr).toMatch(/No results with a severity of 'hint' or higher found/);
      expect(spectral.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await gateway.close();
      await claims.close();
      await evidence.close();
    }
  }, 60000);

  it.each(['claims', 'evidence', 'platform'] as const)(
    '%s: every operation has an operationId, one tag, examples that match their schemas and problem+json errors',
    (name) => {
      // the merged document holds copies of the same schemas and examples: checked for presence there
      expect(contractGaps(documents[name], { validateExamples: name !== 'platform' })).toEqual([]);
    },
  );

  it('operationIds are unique across the platform, and reused bodies are named schemas referenced, not copied', () => {
    const ids = operationsOf(documents.platform).map(([, op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const getKit =
      documents.platform.paths['/api/claims/claims/{id}/adjuster-kits/{kit_id}'].get.responses['200'].content!['application/json'].schema;
    const generateKit =
      documents.platform.paths['/api/claims/claims/{id}/generate-adjuster-kit'].post.responses['201'].content!['application/json'].schema;
    expect(getKit).toEqual({ $ref: '#/components/schemas/AdjusterKit' });
    expect(generateKit).toEqual(getKit);
  });

  it('every query parameter is its query schema’s property, described as the schema describes it (defineRoute maps them; none by hand)', () => {
    const parameters = operationsOf(documents.platform).flatMap(([name, op]) =>
      ((op as { parameters?: { name: string; in: string; description?: string; schema: { description?: string } }[] }).parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => ({
          where: `${name} ?${parameter.name}`,
          description: parameter.description,
          own: parameter.schema.description,
        })),
    );
    expect(parameters.filter(({ description, own }) => description !== own)).toEqual([]);
    expect(parameters.find(({ where }) => where === 'GET /api/evidence/audit/verify ?from_seq')?.description).toMatch(/^First record/);
    expect(parameters.find(({ where }) => where === 'GET /api/evidence/controls ?cursor')?.description).toMatch(/next_cursor/);
  });

  it('at the gateway, public writes document the rate limit (429 with Retry-After) and every operation the gateway answers 502 and 504', () => {
    const intake = documents.platform.paths['/api/claims/public/claims'].post;
    expect(resolve(documents.platform, intake.responses['429']).headers).toHaveProperty('Retry-After');
    expect(documents.platform.paths['/api/claims/public/claims/{id}/status'].get.responses['429']).toBeUndefined();
    for (const [, op] of operationsOf(documents.platform))
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['502', '504']));
    expect(intake.responses['408']).toBeDefined();
  });

  it('the builder refuses an operation without an operationId or an example', () => {
    const document = new OpenApiDocument({ title: 't', version: '1', description: 'd' }, '/api/t');
    const schema = { type: 'object' };
    const spec = {
      operationId: 'createThing',
      summary: 's',
      tag: 'Things',
      security: 'public' as const,
      responses: { 201: { description: 'd', schema, example: {} } },
    };
    expect(() => document.operation('post', '/things', { ...spec, operationId: 'Create thing' })).toThrow(/camelCase/);
    expect(() => document.operation('post', '/things', { ...spec, responses: { 201: { description: 'd', schema } } })).toThrow(
      /201 response has no example/,
    );
    expect(() =>
      document.operation('post', '/things', { ...spec, requestBody: { contentType: 'application/json', schema, example: undefined } }),
    ).toThrow(/request body has no example/);
    document.operation('post', '/things', spec);
    expect(() => document.operation('get', '/things', spec)).toThrow(/used twice/);
  });
});
