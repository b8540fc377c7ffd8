import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { refuseBodyOnRead } from './body';
import { answerUnparseableRequests } from './client-errors';
import { errorHandler, notFoundHandler, sendProblem } from './errors';
import { observeRequests, type RouteLabel } from './observability';
import type { OpenApiDocument } from './openapi';
import { problems } from './problem';
import { requestId } from './request-context';
import { refuseUnstorableUrl } from './validation';

export type ReadinessCheck = () => Promise<unknown>;

/** Shared by /readyz and shutdown: once draining, the process reports not-ready so traffic moves away. */
export class Lifecycle {
  draining = false;
}

export interface ServiceAppOptions {
  logger: Logger;
  metrics: Registry;
  /** Serve `/metrics` on this app (default); false where metrics have an internal listener of their own. */
  metricsRoute?: boolean;
  readiness: Record<string, ReadinessCheck>;
  openapi?: OpenApiDocument;
  lifecycle?: Lifecycle;
  /** Labels the requests no express route matched (the gateway's proxied ones) in the request metrics. */
  routeLabel?: RouteLabel;
  /**
   * Refuse a path or query holding text PostgreSQL cannot store (default). Off only where nothing is stored
   * and the text is checked anyway: the gateway refuses such paths itself and forwards queries to the
   * services, which refuse them.
   */
  refuseUnstorableUrl?: boolean;
  /**
   * The process's own steps for every request, run after the shared ones (request id, access log, metrics,
   * `no-store`) in the same single layer and before any route: the gateway's header hygiene, access
   * decision and forwarding. A step that answers ends the request; one that calls next() hands it on.
   */
  firstSteps?: RequestHandler[];
}

const READINESS_TIMEOUT_MS = 2000;
/** How long close() lets in-flight requests run before it cuts their connections. */
const CLOSE_DEADLINE_MS = 15000;

/** `promise`, or a rejection once `ms` have passed without it settling. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/** Prometheus exposition of `registry`. */
export function metricsHandler(registry: Registry) {
  return async (_req: Request, res: Response) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  };
}

/** What express matches for a middleware mounted at `/api`: that segment, any case, then a path, a query or nothing. */
const API_PATH = /^\/api(?:[/?]|$)/i;

/** API answers carry personal data, a claimant's access token or state that changes under the reader: no cache may keep them. */
function noStoreForApi(req: Request, res: Response, next: NextFunction): void {
  if (API_PATH.test(req.url)) res.setHeader('Cache-Control', 'no-store');
  next();
}

/**
 * `steps` as one express layer, each run when the one before calls next(), as express would run them as
 * layers of their own — without the router's matching, mount-path and parameter work per layer, which
 * the gateway's profile showed on every request. An error (passed to next, thrown, or a rejected promise)
 * skips the remaining steps and goes to express's error handling; the last step's next() goes on to the routes.
 */
export function inSequence(steps: RequestHandler[]): RequestHandler {
  return (req, res, done) => {
    let index = 0;
    const next = (error?: unknown) => {
      if (error !== undefined && error !== null) return done(error);
      const step = steps[index++];
      if (!step) return done();
      try {
        const result: unknown = step(req, res, next);
        if (result instanceof Promise) result.catch((rejection: unknown) => done(rejection ?? new Error('Rejected promise')));
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}

/** The skeleton every process shares: request ids, access log, metrics, health, readiness, OpenAPI. */
export function createServiceApp(options: ServiceAppOptions): Express {
  const lifecycle = options.lifecycle ?? new Lifecycle();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'extended');
  app.use(
    inSequence([
      requestId,
      observeRequests(options.logger, options.metrics, options.routeLabel),
      noStoreForApi,
      refuseBodyOnRead,
      ...(options.refuseUnstorableUrl !== false ? [refuseUnstorableUrl] : []),
      ...(options.firstSteps ?? []),
    ]),
  );

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'alive' });
  });
  app.get('/readyz', async (req: Request, res: Response) => {
    if (lifecycle.draining) return sendProblem(req, res, problems.serviceUnavailable('Shutting down', 1));
    const results: Record<string, string> = {};
    let ready = true;
    await Promise.all(
      Object.entries(options.readiness).map(async ([name, check]) => {
        try {
          await withTimeout(check(), READINESS_TIMEOUT_MS);
          results[name] = 'ok';
        } catch (error) {
          ready = false;
          results[name] = (error as Error).message || 'unreachable';
        }
      }),
    );
    if (ready) return void res.json({ status: 'ready', checks: results });
    const problem = problems.serviceUnavailable('A dependency is unreachable');
    res.status(503).setHeader('Retry-After', problem.headers['Retry-After']);
    res.type('application/problem+json').send(JSON.stringify({ ...problem.body(req.path, req.id), checks: results }));
  });
  if (options.metricsRoute !== false) app.get('/metrics', metricsHandler(options.metrics));
  if (options.openapi) {
    const document = options.openapi;
    app.get('/openapi.json', (_req, res) => {
      res.json(document.toJSON());
    });
  }
  return app;
}

/** Adds the problem+json 404 and error handler; call after every route is mounted. */
export function finishApp(app: Express, logger: Logger): Express {
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * How long a client may take, chosen rather than left to Node's defaults (headers 60 s, checked only every
 * 30 s, so unfinished headers held a connection about 84 s): the headers within 10 s, the whole request
 * (an upload included) within 5 minutes, checked every second; past either the client gets 408 and the
 * connection closes. Processes take them from HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS (clientTimeoutVariables
 * in @platform/runtime).
 */
export interface ClientTimeouts {
  headersTimeoutMs: number;
  /** At least headersTimeoutMs (Node refuses less). */
  requestTimeoutMs: number;
  checkIntervalMs: number;
}

export const CLIENT_TIMEOUTS: ClientTimeouts = { headersTimeoutMs: 10_000, requestTimeoutMs: 300_000, checkIntervalMs: 1_000 };

/**
 * Listens on `port` (0 for any) and returns a handle whose close() waits for in-flight requests. Requests
 * Node's parser refuses, and clients too slow to send one (`timeouts`), are answered as problem+json too.
 */
export function listen(app: Express, port: number, host = '0.0.0.0', timeouts: ClientTimeouts = CLIENT_TIMEOUTS): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = createServer(
      {
        headersTimeout: timeouts.headersTimeoutMs,
        requestTimeout: timeouts.requestTimeoutMs,
        connectionsCheckingInterval: timeouts.checkIntervalMs,
      },
      app,
    );
    server.listen(port, host);
    server.keepAliveTimeout = 5000;
    answerUnparseableRequests(server);
    server.once('error', reject);
    server.once('listening', () => {
      const actual = (server.address() as AddressInfo).port;
      resolve({
        server,
        port: actual,
        url: `http://127.0.0.1:${actual}`,
        close: () =>
          new Promise<void>((done) => {
            // Stop accepting; answer what is in flight with `Connection: close`; drop keep-alive sockets as they
            // go idle; after the deadline, close whatever is left.
            server.on('request', (_req, res) => res.setHeader('Connection', 'close'));
            const idleSweep = setInterval(() => server.closeIdleConnections(), 50);
            const deadline = setTimeout(() => server.closeAllConnections(), CLOSE_DEADLINE_MS);
            server.close(() => {
              clearInterval(idleSweep);
              clearTimeout(deadline);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
