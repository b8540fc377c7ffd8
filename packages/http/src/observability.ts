import type { NextFunction, Request, RequestHandler, Response } from 'express';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The part of pino-http's options used here. It is required, not imported: importing its type declarations
 * would retype `id` on every IncomingMessage as `string | number | object`, and ours is always a string.
 */
interface PinoHttpOptions extends LoggerOptions {
  logger: Logger;
  quietReqLogger: boolean;
  customAttributeKeys: { reqId: string; responseTime: string };
  customErrorObject: (req: unknown, res: unknown, error: Error, line: Record<string, unknown>) => Record<string, unknown>;
}
const { pinoHttp } = require('pino-http') as { pinoHttp: (options: PinoHttpOptions) => RequestHandler };

let prettyStdout: DestinationStream | undefined;

/** Human-readable lines for a developer at a terminal; JSON wherever a machine reads them (CI, tests, containers, production). */
export function createLogger(name: string): Logger {
  const options = {
    name,
    level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
    redact: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
  };
  if (!process.stdout.isTTY || process.env.NODE_ENV === 'production') return pino(options);
  // One in-process stream for every logger: a pino transport would start a worker thread per logger.
  prettyStdout ??= pretty({
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,ms,request_id',
    messageFormat: prettyMessage,
  });
  return pino(options, prettyStdout);
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
  return registry;
}

/**
 * One access-log line per request (pino-http) carrying the request id, method, path (never the query, which
 * may hold personal data), status and milliseconds.
 */
export function accessLog(logger: Logger) {
  return pinoHttp({
    logger,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'request_id', responseTime: 'ms' },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    // pino-http makes up an Error for a 5xx; the error handler has already logged the real one.
    customErrorObject: (_req, _res, _error, { err: _madeUp, ...line }) => line,
  });
}

/** The `route` label of a request express did not route itself (a proxied one); undefined for `unmatched`. */
export type RouteLabel = (req: Request, res: Response) => string | undefined;

/** One histogram observation and counter increment per request, labelled by route, not raw path. */
export function measureRequests(registry: Registry, routeLabel?: RouteLabel) {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (req.route?.path as string | undefined) ? `${req.baseUrl}${req.route.path}` : (routeLabel?.(req, res) ?? 'unmatched');
      const labels = { method: req.method, route, status: String(res.statusCode) };
      duration.observe(labels, seconds);
      requests.inc(labels);
    });
    next();
  };
}
