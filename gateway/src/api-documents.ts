import { isDeepStrictEqual } from 'node:util';
import type { Express, Request, Response } from 'express';
import swaggerUi from 'swagger-ui-express';
import { API_CONTACT, API_LICENSE, problemResponse, problems, sendProblem } from '@platform/http';
import { classifyPath, type Upstream } from './request-path';

/**
 * The gateway's API documentation, built from what the services serve at `/openapi.json` (fetched on
 * each request, so a redeployed service is documented at once):
 *
 * - `GET /openapi.json` — ONE merged OpenAPI 3.1 document for the whole platform: every path made
 *   absolute (the service's server path + the path, unless the path already starts with the server
 *   path), `servers: [{ url: "/" }]`, components merged (a
 *   name two services define differently is prefixed with the service name and its `$ref`s rewritten);
 * - `GET /docs/claims.json`, `GET /docs/evidence.json` — each service's document as it serves it;
 * - `GET /docs/` — Swagger UI with a selector of the two service documents.
 */
export interface DocumentSource {
  name: Upstream;
  title: string;
  url: string;
}

type OpenApi = {
  openapi?: string;
  servers?: { url: string }[];
  paths?: Record<string, unknown>;
  components?: Record<string, Record<string, unknown>>;
  tags?: { name: string }[];
};

const FETCH_TIMEOUT_MS = 3000;

async function fetchDocument(source: DocumentSource): Promise<OpenApi> {
  const response = await fetch(`${source.url.replace(/\/$/, '')}/openapi.json`, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${source.name} answered ${response.status}`);
  return (await response.json()) as OpenApi;
}

function basePathOf(document: OpenApi): string {
  const server = document.servers?.[0]?.url ?? '';
  const path = server.startsWith('/') ? server : server ? new URL(server).pathname : '';
  return path.replace(/\/$/, '');
}

/** A path relative to the service's server path, made absolute; one that already starts with it is kept. */
function absolutePath(basePath: string, path: string): string {
  return basePath && path !== basePath && !path.startsWith(`${basePath}/`) ? `${basePath}${path}` : path;
}

function rewriteRefs(value: unknown, renames: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, renames));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === '$ref' && typeof item === 'string' ? (renames.get(item) ?? item) : rewriteRefs(item, renames),
    ]),
  );
}

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);
const SECONDS = { schema: { type: 'integer', minimum: 0 } };

/** The answers the gateway itself gives, added to the merged document once under `components.responses`. */
const GATEWAY_RESPONSES = {
  RequestTimeout: {
    status: 408,
    response: problemResponse('The client stopped sending its request body for UPSTREAM_TIMEOUT_MS (answered by the gateway)', 408),
  },
  RateLimited: {
    status: 429,
    response: problemResponse('Over PUBLIC_RATE_LIMIT writes a minute from this client address (answered by the gateway)', 429, {
      'Retry-After': { description: 'Seconds until the window resets', ...SECONDS },
      RateLimit: {
        description: 'IETF draft-8: the remaining quota and seconds to reset, e.g. `"public";r=0;t=42`',
        schema: { type: 'string' },
      },
      'RateLimit-Policy': { description: 'IETF draft-8: the quota and window, e.g. `"public";q=20;w=60`', schema: { type: 'string' } },
    }),
  },
  BadGateway: { status: 502, response: problemResponse('The service cannot be reached (answered by the gateway)', 502) },
  GatewayTimeout: {
    status: 504,
    response: problemResponse('The service stayed silent for UPSTREAM_TIMEOUT_MS (answered by the gateway)', 504),
  },
};

/** Adds the gateway's own answers to each operation: 502/504 always, 408 with a body, 429 on public writes (rate-limited). */
function withGatewayResponses(path: string, item: unknown): unknown {
  if (!item || typeof item !== 'object') return item;
  const publicGroup = classifyPath(path)?.group === 'public';
  return Object.fromEntries(
    Object.entries(item).map(([method, operation]) => {
      const op = operation as { responses?: Record<string, unknown>; requestBody?: unknown };
      if (!op || typeof op !== 'object' || !op.responses) return [method, operation];
      const applies = {
        RequestTimeout: op.requestBody !== undefined,
        RateLimited: publicGroup && WRITE_METHODS.has(method),
        BadGateway: true,
        GatewayTimeout: true,
      };
      const added = Object.entries(GATEWAY_RESPONSES)
        .filter(([name, { status }]) => applies[name as keyof typeof applies] && !(status in op.responses!))
        .map(([name, { status }]) => [status, { $ref: `#/components/responses/${name}` }]);
      return [method, { ...op, responses: { ...op.responses, ...Object.fromEntries(added) } }];
    }),
  );
}

/**
 * Whether two parts of JSON documents say the same: compared as JSON, so where their objects were made
 * (a fetched document's parser, or another realm such as a test runner's) does not make them differ.
 */
const sameJson = (a: unknown, b: unknown) => isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));

/** Merges the services' documents into one; exported for its tests. */
export function mergeDocuments(documents: { name: string; document: OpenApi }[]): object {
  const paths: Record<string, unknown> = {};
  const components: Record<string, Record<string, unknown>> = {};
  const tags = new Map<string, unknown>();
  for (const { name, document } of documents) {
    const renames = new Map<string, string>();
    for (const [section, entries] of Object.entries(document.components ?? {})) {
      for (const [entry, value] of Object.entries(entries)) {
        const existing = components[section]?.[entry];
        if (existing !== undefined && !sameJson(existing, value))
          renames.set(`#/components/${section}/${entry}`, `#/components/${section}/${name}_${entry}`);
      }
    }
    const rewritten = rewriteRefs(document, renames) as OpenApi;
    for (const [section, entries] of Object.entries(rewritten.components ?? {})) {
      components[section] ??= {};
      for (const [entry, value] of Object.entries(entries)) {
        const renamed = renames.has(`#/components/${section}/${entry}`) ? `${name}_${entry}` : entry;
        components[section][renamed] = value;
      }
    }
    const basePath = basePathOf(document);
    for (const [path, item] of Object.entries(rewritten.paths ?? {})) {
      const absolute = absolutePath(basePath, path);
      paths[absolute] = withGatewayResponses(absolute, item);
    }
    for (const tag of rewritten.tags ?? []) tags.set(tag.name, tag);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Claims platform API',
      version: '1.0.0',
      contact: API_CONTACT,
      license: API_LICENSE,
      description: `The platform behind its gateway: ${documents.map((d) => d.name).join(' and ')} merged from each service's /openapi.json. Besides the services' own answers, the gateway itself answers 502 when a service cannot be reached, 504 when a service stays silent for UPSTREAM_TIMEOUT_MS, and 408 when the client stops sending its request body for that long (the client's fault, not the service's); each as problem+json.`,
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      ...components,
      responses: {
        ...components.responses,
        ...Object.fromEntries(Object.entries(GATEWAY_RESPONSES).map(([name, { response }]) => [name, response])),
      },
    },
    ...(tags.size > 0 ? { tags: [...tags.values()] } : {}),
  };
}

async function answerWithDocument(req: Request, res: Response, load: () => Promise<object>): Promise<void> {
  let document: object;
  try {
    document = await load();
  } catch (error) {
    return sendProblem(req, res, problems.badGateway(`An OpenAPI document could not be fetched: ${(error as Error).message}`));
  }
  res.json(document);
}

export function mountApiDocuments(app: Express, sources: DocumentSource[]): void {
  app.get('/openapi.json', (req, res) =>
    answerWithDocument(req, res, async () =>
      mergeDocuments(await Promise.all(sources.map(async (source) => ({ name: source.name, document: await fetchDocument(source) })))),
    ),
  );
  for (const source of sources) {
    app.get(`/docs/${source.name}.json`, (req, res) => answerWithDocument(req, res, () => fetchDocument(source)));
  }
  // swagger-ui-express passes `swaggerUrls` on as Swagger UI's `urls` ({ url, name }); its types say string[].
  const options = {
    customSiteTitle: 'Claims platform API',
    swaggerUrls: sources.map((source) => ({ url: `/docs/${source.name}.json`, name: source.title })),
  } as unknown as swaggerUi.SwaggerUiOptions;
  const page = swaggerUi.setup(undefined, options);
  app.use('/docs', swaggerUi.serveFiles(undefined, options));
  app.get('/docs', (req, res, next) => (req.path.endsWith('/') ? page(req, res, next) : res.redirect(301, '/docs/')));
}
