import { claimsService, readClaimsConfig } from '@platform/claims';
import { evidenceService, readEvidenceConfig } from '@platform/evidence';
import { jsonBody, noBody } from '@platform/http';
import { mountWithoutServer, type ServiceDefinition } from '@platform/runtime';

/** A handler of a route, compared by identity with the kit's. */
type RequestHandler = unknown;

interface MountedRoute {
  path: string;
  method: string;
  handlers: RequestHandler[];
}

interface RouterLayer {
  route?: { path: string | string[]; methods: Record<string, boolean>; stack: { handle: RequestHandler }[] };
  handle?: { stack?: RouterLayer[] };
}

/** Every route express would match, with its handlers in order, nested routers included. */
function mountedRoutes(layers: RouterLayer[]): MountedRoute[] {
  return layers.flatMap((layer) => {
    if (layer.route) {
      const { route } = layer;
      return (Array.isArray(route.path) ? route.path : [route.path]).flatMap((path) =>
        Object.keys(route.methods).map((method) => ({ path, method, handlers: route.stack.map((step) => step.handle) })),
      );
    }
    return layer.handle?.stack ? mountedRoutes(layer.handle.stack) : [];
  });
}

/** An express path and an OpenAPI path name the same route whatever their parameters are called. */
const samePath = (expressPath: string, openApiPath: string) =>
  expressPath.replace(/:\w+/g, ':param') === openApiPath.replace(/\{\w+\}/g, ':param');

/** Whether the mounted route is the operation `key` names: `POST /api/evidence/runs/{id}/submit`. */
const isRoute = (route: MountedRoute, key: string) => {
  const [method, path] = key.split(' ');
  return route.method === method.toLowerCase() && samePath(route.path, path);
};

interface DocumentedOperation {
  requestBody?: { content: Record<string, unknown> };
}

/** Paths served beside a documented operation's own and deliberately left out of the document (aliases: defineRoute's `aliases`). */
const UNDOCUMENTED_ALIASES = [
  // the download_url of binders handed out before binder-archives/{id} (Redocly's no-ambiguous-paths keeps it out)
  'GET /api/evidence/binders/{id}/download',
];

const services: [string, () => ServiceDefinition][] = [
  ['claims', () => claimsService(readClaimsConfig({}))],
  ['evidence', () => evidenceService(readEvidenceConfig({}))],
];

/**
 * One rule for request bodies, checked on every operation the services document: an operation that declares
 * no body runs the kit's noBody (a body sent anyway is 400, unread; GETs get that from the skeleton), one that
 * takes JSON runs jsonBody (capped, 413 and closed past it). A route that forgets either fails here, before a client finds its body ignored.
 */
describe.each(services)('%s: every documented operation reads its body through the http kit', (name, definition) => {
  let routes: MountedRoute[];
  let paths: Record<string, Record<string, DocumentedOperation>>;
  let basePath: string;

  beforeAll(async () => {
    const service = definition();
    const config = name === 'claims' ? readClaimsConfig({}) : readEvidenceConfig({});
    const mounted = mountWithoutServer(service, config);
    basePath = service.basePath;
    routes = mountedRoutes((mounted.app as unknown as { router: { stack: RouterLayer[] } }).router.stack);
    paths = (mounted.openapi.toJSON() as { paths: typeof paths }).paths;
    await mounted.close();
  });

  const operations = () =>
    Object.entries(paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, operation]) => {
        const full = path.startsWith(`${basePath}/`) ? path : `${basePath}${path}`;
        const route = routes.find((candidate) => samePath(candidate.path, full) && candidate.method === method);
        return { key: `${method.toUpperCase()} ${full}`, operation, route };
      }),
    );

  it('finds the route of every documented operation', () => {
    const unmounted = operations()
      .filter(({ route }) => !route)
      .map(({ key }) => key);
    expect(unmounted).toEqual([]);
    expect(operations().length).toBeGreaterThan(5);
  });

  it('documents every route it mounts (defineRoute declares both; a route added beside it fails here)', () => {
    const documented = operations();
    const undocumented = routes
      .filter((route) => ![...UNDOCUMENTED_ALIASES, ...documented.map(({ key }) => key)].some((key) => isRoute(route, key)))
      .map((route) => `${route.method.toUpperCase()} ${route.path}`);
    expect(undocumented).toEqual([]);
    expect(routes.length).toBe(documented.length + UNDOCUMENTED_ALIASES.filter((alias) => alias.includes(basePath)).length);
  });

  // GET and HEAD are refused a body by the skeleton for every route (refuseBodyOnRead, in createServiceApp).
  it('runs noBody on every other operation that declares no body (withdraw and submit among them)', () => {
    const bodiless = operations().filter(({ operation, key }) => !operation.requestBody && !key.startsWith('GET '));
    const missing = bodiless.filter(({ route }) => route && !route.handlers.includes(noBody)).map(({ key }) => key);
    expect(missing).toEqual([]);
    const keys = bodiless.map(({ key }) => key);
    if (name === 'claims') expect(keys).toContain('POST /api/claims/public/claims/{id}/withdraw');
    else expect(keys).toContain('POST /api/evidence/runs/{id}/submit');
  });

  it('runs jsonBody on every operation whose only body is JSON', () => {
    const jsonOnly = operations().filter(({ operation }) => {
      const types = Object.keys(operation.requestBody?.content ?? {});
      return types.length > 0 && types.every((type) => type === 'application/json');
    });
    const missing = jsonOnly.filter(({ route }) => route && !route.handlers.includes(jsonBody)).map(({ key }) => key);
    expect(missing).toEqual([]);
  });
});
