import cors from 'cors';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { Counter, type Registry } from 'prom-client';
import { authenticate, createJwtVerifier } from '@platform/auth';
import {
  Lifecycle,
  createLogger,
  createMetrics,
  createServiceApp,
  finishApp,
  listen,
  metricsHandler,
  problems,
  refuseDeclaredOversizeJson,
  sendProblem,
  type RunningServer,
} from '@platform/http';
import { clientTimeouts, dependencyUpGauge } from '@platform/runtime';
import { setHttpRoute } from '@platform/telemetry';
import { mountApiDocuments } from './api-documents';
import { mountAsyncApiDocument } from './asyncapi-document';
import { publicBrand } from '@platform/config';
import type { GatewayConfig } from './config';
import { forwardingHeaders } from './forwarding-headers';
import { publicWriteRateLimit } from './public-rate-limit';
import { securityHeaders } from './security-headers';
import { classifyPath, normalisePath, type ApiRoute, type Upstream } from './request-path';
import { apiRouteTemplate, proxiedRouteLabels } from './route-labels';
import { createUpstreamProxy, upstreamDurationHistogram } from './upstream-proxy';
import { mountWebPages } from './web-pages';
import { limitConnectionsPerClient } from './connection-limit';
import { mountWorkbenchSignIn, signInProviderOrigins } from './workbench-sign-in';

export interface Gateway {
  app: Express;
  metrics: Registry;
  /** Set `draining` when shutting down: /readyz turns 503 so traffic moves away. */
  lifecycle: Lifecycle;
  /** Counts a request the gateway refused itself (gateway_rejected_requests_total), by reason. */
  countRejection(reason: string): void;
  /** Reports not-ready and releases upstream connections: call once the HTTP server has stopped. */
  close(): Promise<void>;
}

const READINESS_TIMEOUT_MS = 1500;
const VERIFIED_TOKENS_KEPT = 10_000;

/** Express's `trust proxy` from TRUST_PROXY: true/false, a hop count, or addresses/subnets/names. */
export function trustProxySetting(value: string): boolean | number | string {
  if (/^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

async function upstreamReady(name: Upstream, url: string): Promise<void> {
  let response: globalThis.Response;
  try {
    response = await fetch(`${url.replace(/\/$/, '')}/readyz`, { signal: AbortSignal.timeout(READINESS_TIMEOUT_MS) });
  } catch {
    throw new Error(`${name} is unreachable`);
  }
  await response.body?.cancel();
  if (response.status !== 200) throw new Error(`${name} is not ready (${response.status})`);
}

/**
 * The gateway: routes `/api/claims/**` and `/api/evidence/**` to the services, deciding access on the
 * normalised path — `/api/claims/public/**` is public, everything else there needs a verified JWT
 * (the services verify it again and enforce scopes) — and serves its own health, readiness, metrics
 * and API documentation, and the web pages (/portal, /workbench, their /assets). Everything else is a 404 problem.
 */
export function createGateway(config: GatewayConfig): Gateway {
  const logger = createLogger('gateway');
  const metrics = createMetrics('gateway');
  const lifecycle = new Lifecycle();
  // Verified tokens are kept (until exp at the latest): a client's every request carries the same one.
  const verifyToken = createJwtVerifier(config, config.NODE_ENV, { cacheSize: VERIFIED_TOKENS_KEPT });
  const rejections = new Counter({
    name: 'gateway_rejected_requests_total',
    help: 'Requests the gateway refused itself, by reason',
    labelNames: ['reason'],
    registers: [metrics],
  });
  const duration = upstreamDurationHistogram(metrics);
  const targets: Record<Upstream, string> = { claims: config.CLAIMS_URL, evidence: config.EVIDENCE_URL };
  const proxies = {
    claims: createUpstreamProxy({ name: 'claims', target: targets.claims, timeoutMs: config.UPSTREAM_TIMEOUT_MS, logger, duration }),
    evidence: createUpstreamProxy({ name: 'evidence', target: targets.evidence, timeoutMs: config.UPSTREAM_TIMEOUT_MS, logger, duration }),
  };

  // Decide on the normalised path; from here on req.url IS the normalised path (query string kept as sent).
  const decideRoute = (req: Request, res: Response, next: NextFunction) => {
    const queryAt = req.url.indexOf('?');
    const rawPath = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
    const normalised = normalisePath(rawPath);
    if (!normalised.ok) {
      rejections.inc({ reason: 'bad_path' });
      return sendProblem(req, res, problems.badRequest(normalised.reason));
    }
    res.locals.apiRoute = classifyPath(normalised.path);
    req.url = normalised.path + (queryAt === -1 ? '' : req.url.slice(queryAt));
    next();
  };
  const requireToken = authenticate(verifyToken);
  const forward = (route: ApiRoute, req: Request, res: Response, next: NextFunction) => {
    setHttpRoute(apiRouteTemplate(route));
    const queryAt = req.url.indexOf('?');
    req.url = route.path + (queryAt === -1 ? '' : req.url.slice(queryAt));
    void proxies[route.upstream].handler(req, res, next);
  };
  /** API paths go to their service (internal ones with a verified token); the gateway's own pages and documents go on to its routes. */
  const forwardApiRequests = (req: Request, res: Response, next: NextFunction) => {
    const route = res.locals.apiRoute as ApiRoute | undefined;
    if (!route) return next();
    if (route.group === 'public') return forward(route, req, res, next);
    return requireToken(req, res, (error?: unknown) => {
      if (error) {
        rejections.inc({ reason: 'unauthenticated' });
        return next(error);
      }
      forward(route, req, res, next);
    });
  };

  // Every step of a proxied request runs in the skeleton's one first layer (inSequence): the router's
  // per-layer work was a measurable part of the gateway's cost per request (docs/BENCHMARKS.md).
  dependencyUpGauge({
    registry: metrics,
    logger,
    name: 'gateway_upstream_up',
    help: 'Whether each service answers its /readyz with 200 (1) or not (0), checked at each scrape',
    labelName: 'upstream',
    checks: { claims: () => upstreamReady('claims', targets.claims), evidence: () => upstreamReady('evidence', targets.evidence) },
  });
  const app = createServiceApp({
    logger,
    metrics,
    // Metrics tell an outsider the traffic and error rates: never on the public port in production.
    metricsRoute: config.METRICS_PORT === 0 && config.NODE_ENV !== 'production',
    lifecycle,
    routeLabel: proxiedRouteLabels(),
    // normalisePath refuses NUL and lone surrogates in the path (as control characters and invalid
    // percent-encoding); queries are forwarded untouched to the services, which refuse unstorable text.
    refuseUnstorableUrl: false,
    // Ready whenever it is not draining: a service that is down only fails its own routes (502/503 problem),
    // while pulling every gateway pod would take the pages and the other service with it. Upstream health is
    // the gateway_upstream_up gauge instead (docs/ARCHITECTURE.md, readiness).
    readiness: {},
    firstSteps: [
      securityHeaders({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }),
      ...(config.CORS_ORIGINS.length > 0
        ? [
            cors({
              origin: config.CORS_ORIGINS,
              exposedHeaders: ['X-Request-Id', 'Location', 'Retry-After', 'RateLimit', 'RateLimit-Policy'],
              maxAge: 600,
            }),
          ]
        : []),
      decideRoute,
      forwardingHeaders,
      publicWriteRateLimit(config.PUBLIC_RATE_LIMIT, rejections),
      refuseDeclaredOversizeJson,
      forwardApiRequests,
    ],
  });
  app.set('trust proxy', trustProxySetting(config.TRUST_PROXY));

  mountApiDocuments(app, [
    { name: 'claims', title: 'Claims service', url: targets.claims },
    { name: 'evidence', title: 'Evidence service', url: targets.evidence },
  ]);
  mountAsyncApiDocument(app);
  mountWorkbenchSignIn(app, config);
  mountWebPages(app, undefined, signInProviderOrigins(config), publicBrand(config));
  finishApp(app, logger);

  return {
    app,
    metrics,
    lifecycle,
    countRejection: (reason) => rejections.inc({ reason }),
    close: async () => {
      lifecycle.draining = true;
      proxies.claims.close();
      proxies.evidence.close();
    },
  };
}

/** The internal listener that serves only /metrics (METRICS_PORT on METRICS_HOST). */
function listenForMetrics(registry: Registry, config: GatewayConfig): Promise<RunningServer> {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', metricsHandler(registry));
  finishApp(app, createLogger('gateway-metrics'));
  return listen(app, config.METRICS_PORT, config.METRICS_HOST);
}

/**
 * Listens on PORT/HOST (and METRICS_PORT when set); close() reports not-ready, lets in-flight requests
 * finish, then releases upstreams.
 */
export async function startGateway(config: GatewayConfig): Promise<RunningServer & { lifecycle: Lifecycle; metricsUrl?: string }> {
  const gateway = createGateway(config);
  const server = await listen(gateway.app, config.PORT, config.HOST, clientTimeouts(config));
  limitConnectionsPerClient(server.server, config.MAX_CONNECTIONS_PER_CLIENT, () => gateway.countRejection('too_many_connections'));
  const metricsServer = config.METRICS_PORT === 0 ? undefined : await listenForMetrics(gateway.metrics, config);
  createLogger('gateway').info(
    { port: server.port, metrics_port: metricsServer?.port, claims: config.CLAIMS_URL, evidence: config.EVIDENCE_URL },
    'gateway listening',
  );
  let closing: Promise<void> | undefined;
  return {
    ...server,
    lifecycle: gateway.lifecycle,
    metricsUrl: metricsServer && `${metricsServer.url}/metrics`,
    close: () =>
      (closing ??= (async () => {
        gateway.lifecycle.draining = true;
        await Promise.all([server.close(), metricsServer?.close()]);
        await gateway.close();
      })()),
  };
}
