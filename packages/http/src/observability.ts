import type { Request, RequestHandler, Response } from 'express';
import pino, { type DestinationStream, type Logger } from 'pino';
// The module alone: the package's index also loads the SDK, which only a process's tracing.ts starts.
import { traceLogFields } from '@platform/telemetry/src/trace-context';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { BoundCounter, BoundHistogram, type CounterSeries, type HistogramSeries } from './bound-metrics';

let prettyStdout: DestinationStream | undefined;

/** Human-readable lines for a developer at a terminal; JSON wherever a machine reads them (CI, tests, containers, production). */
export function createLogger(name: string): Logger {
  const options = {
    name,
    level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
    redact: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
    mixin: traceLogFields,
  };
  if (!process.stdout.isTTY || process.env.NODE_ENV === 'production') return pino(options);
  prettyStdout ??= prettyStream();
  return prettyStdout ? pino(options, prettyStdout) : pino(options);
}

/**
 * One in-process stream for every logger (a pino transport would start a worker thread per logger).
 * pino-pretty is a development dependency, loaded only here: no production image carries it, and a build
 * run at a terminal without it logs JSON.
 */
function prettyStream(): DestinationStream | undefined {
  let pretty: typeof import('pino-pretty');
  try {
    pretty = require('pino-pretty') as typeof import('pino-pretty');
  } catch {
    return undefined;
  }
  return pretty({
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,ms,request_id',
    messageFormat: prettyMessage,
  });
}

/** An access-log line reads `GET /path 200 3 ms`; any line of a request ends with its request id. */
function prettyMessage(line: Record<string, unknown>, messageKey: string): string {
  const req = line.req as { method: string; path: string } | undefined;
  const res = line.res as { status: number } | undefined;
  const message = req && res ? `${req.method} ${req.path} ${res.status} ${line.ms} ms` : String(line[messageKey] ?? '');
  return line.request_id ? `${message} [${line.request_id}]` : message;
}

export function createMetrics(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'build_info',
    help: 'Always 1; the labels name what runs: version and commit (BUILD_VERSION, BUILD_COMMIT, set in the image) and Node.js',
    labelNames: ['version', 'commit', 'node'],
    registers: [registry],
  }).set(buildInfo(), 1);
  return registry;
}

/** What runs: BUILD_VERSION and BUILD_COMMIT as the image was built (deploy/Dockerfile), and the Node.js version. */
export function buildInfo(): { version: string; commit: string; node: string } {
  return {
    version: process.env.BUILD_VERSION || 'dev',
    commit: process.env.BUILD_COMMIT || 'unknown',
    node: process.versions.node,
  };
}

/** Health and readiness probes and metric scrapes: logged at debug. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The `route` label of a request express did not route itself (a proxied one); undefined for `unmatched`. */
export type RouteLabel = (req: Request, res: Response) => string | undefined;

/**
 * What every request leaves behind, with one listener per request (on the response's `close`, which Node emits
 * once the response has finished and also when the connection goes first):
 * - a histogram observation and a counter increment per finished response, labelled by route template, not
 *   raw path (a response cut off by its connection is not counted);
 * - one access-log line carrying the request id, method, path (never the query, which may hold personal
 *   data), status and milliseconds: "request completed" at info, "request errored" at error for a 5xx (the
 *   error handler logs the error itself), so a 5xx is still logged when only warnings are. Written by hand
 *   rather than with pino-http, which makes two child loggers per request even when the line's level is off.
 */
export function observeRequests(logger: Logger, registry: Registry, routeLabel?: RouteLabel): RequestHandler {
  const duration = new BoundHistogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const requests = new BoundCounter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  // The two series of each label set, looked up by one string. Holds no more entries than the metrics themselves
  // (the labels are bounded: route templates, not paths).
  const series = new Map<string, { duration: HistogramSeries; requests: CounterSeries }>();
  const seriesOf = (method: string, route: string, status: number) => {
    const key = `${method} ${status} ${route}`;
    let found = series.get(key);
    if (!found) {
      const labels = { method, route, status: String(status) };
      series.set(key, (found = { duration: duration.series(labels), requests: requests.series(labels) }));
    }
    return found;
  };
  return (req, res, next) => {
    const started = performance.now();
    // `on`, not `once`: a response emits `close` once, and once() would bind a wrapper per request.
    res.on('close', () => {
      const ms = performance.now() - started;
      if (res.writableFinished) {
        const route = (req.route?.path as string | undefined) ? `${req.baseUrl}${req.route.path}` : (routeLabel?.(req, res) ?? 'unmatched');
        const { duration: observed, requests: counted } = seriesOf(req.method, route, res.statusCode);
        observed.observe(ms / 1000);
        counted.inc();
      }
      const errored = res.statusCode >= 500;
      // Probes and scrapes arrive every few seconds from machines: at debug, unless one fails unexpectedly
      // (a readiness 503 is an answer, reported by the dependency's own log line and gauge).
      const level = PROBE_PATHS.has(req.path) && res.statusCode !== 500 ? 'debug' : errored ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const line = {
        request_id: req.id,
        req: { method: req.method, path: req.url.split('?')[0] },
        res: { status: res.statusCode },
        ms: Math.round(ms),
      };
      if (level === 'error') logger.error(line, 'request errored');
      else logger[level](line, 'request completed');
    });
    next();
  };
}
