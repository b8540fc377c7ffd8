import http from 'node:http';
import https from 'node:https';
import type { Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware, debugProxyErrorsPlugin, proxyEventsPlugin, type Plugin } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { BoundHistogram, JSON_LIMIT_BYTES, closeAfterAnswer, problems, sendProblem, type HistogramSeries } from '@platform/http';
import type { Upstream } from './request-path';

const TIMEOUT_CODE = 'GATEWAY_UPSTREAM_TIMEOUT';
const CLIENT_STALLED_CODE = 'GATEWAY_CLIENT_STALLED';
const JSON_TOO_LARGE_CODE = 'GATEWAY_JSON_TOO_LARGE';

/**
 * A JSON body sent without a Content-Length (chunked) is counted as it is forwarded: the moment it passes
 * JSON_LIMIT_BYTES, the service's request is cut off (the service has then seen at most the cap and one
 * chunk, never a complete body) and the client gets 413 and a closed connection, as a service would answer
 * it. A declared one over the cap never gets here (refuseDeclaredOversizeJson).
 */
function capChunkedJson(proxyReq: http.ClientRequest, req: Request): void {
  if (req.complete || req.get('content-length') !== undefined || !req.is(['application/json', 'application/*+json'])) return;
  let size = 0;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= JSON_LIMIT_BYTES) return;
    req.off('data', onData);
    proxyReq.destroy(Object.assign(new Error(`the JSON body passed ${JSON_LIMIT_BYTES} bytes`), { code: JSON_TOO_LARGE_CODE }));
    req.unpipe(proxyReq);
  };
  // Attached in the same tick as the proxy's pipe (before it), so it sees every chunk the service is sent.
  req.on('data', onData);
  req.once('end', () => req.off('data', onData));
}

export interface UpstreamProxy {
  handler: RequestHandler;
  close(): void;
}

export interface UpstreamProxyOptions {
  name: Upstream;
  target: string;
  timeoutMs: number;
  logger: Logger;
  duration: BoundHistogram<'upstream' | 'status'>;
}

export function upstreamDurationHistogram(registry: Registry): BoundHistogram<'upstream' | 'status'> {
  return new BoundHistogram({
    name: 'gateway_upstream_request_duration_seconds',
    help: 'Requests forwarded by the gateway, by upstream service and final status (502/504: the gateway answered)',
    labelNames: ['upstream', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
}

/** Below the services' keep-alive timeout (packages/http listen(): 5,000 ms). */
export const UPSTREAM_IDLE_SOCKET_MS = 4000;

/**
 * Streams the request to the service untouched (no body parser runs before it) and the response back
 * untouched, the service's own problem responses included. The gateway answers only when the service
 * does not: 502 when it cannot be reached, 504 when it stays silent for `timeoutMs`, 408 when the
 * silence is the client's (it stopped sending its body for `timeoutMs`), and 413 when a chunked JSON body
 * passes the cap (capChunkedJson).
 */
export function createUpstreamProxy(options: UpstreamProxyOptions): UpstreamProxy {
  const { name, target, timeoutMs, logger, duration } = options;
  // An idle kept-alive socket is closed here before the service closes it (its keepAliveTimeout, 5 s):
  // otherwise a request sent on a socket at the moment the service drops it fails with ECONNRESET, a 502.
  const agentOptions = { keepAlive: true, timeout: UPSTREAM_IDLE_SOCKET_MS };
  const agent = target.startsWith('https:') ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  const proxy = createProxyMiddleware<Request, Response>({
    target,
    agent,
    changeOrigin: true,
    xfwd: false,
    // Without the default loggerPlugin: with no logger given it builds a URL and a line per response for a
    // no-op logger. The gateway logs what goes wrong itself (`error` below).
    ejectPlugins: true,
    plugins: [debugProxyErrorsPlugin, proxyEventsPlugin] as unknown as Plugin<Request, Response>[],
    on: {
      proxyReq: (proxyReq, req) => {
        proxyReq.setTimeout(timeoutMs, () => {
          // A service waiting for the rest of a body the client stopped sending is silent through no fault
          // of its own: that is the client's timeout (408), not the service's (504).
          const clientStalled = !req.complete;
          const error = clientStalled
            ? Object.assign(new Error(`the client sent no more of its body for ${timeoutMs} ms`), { code: CLIENT_STALLED_CODE })
            : Object.assign(new Error(`${name} did not answer within ${timeoutMs} ms`), { code: TIMEOUT_CODE });
          proxyReq.destroy(error);
        });
        capChunkedJson(proxyReq, req);
      },
      proxyRes: (proxyRes, req, res) => {
        delete proxyRes.headers['x-powered-by'];
        // Answered before the client finished sending (e.g. a 413 at the size cap): close the client's
        // connection after the answer instead of letting Node read the rest of the body to keep it alive.
        if (!req.complete) {
          proxyRes.headers.connection = 'close';
          closeAfterAnswer(req, res);
        }
        // From here the service's answer is the answer: a later error (e.g. EPIPE because the service
        // answered 413 and closed before reading the whole upload) must not replace it with a 502.
        res.locals.upstreamAnswered = true;
        proxyRes.on('close', () => {
          if (!proxyRes.complete && !res.writableEnded) res.destroy();
        });
      },
      error: (error, req, res) => {
        const request = req as Request;
        const response = res as Response;
        const code = (error as NodeJS.ErrnoException).code;
        // The client went away, or sent a body Node could not parse (answered by answerUnparseableRequests).
        if (request.socket.destroyed || request.socket.writableEnded || code?.startsWith('HPE_')) return;
        if (code === JSON_TOO_LARGE_CODE) {
          sendProblem(request, response, problems.payloadTooLarge(`The body exceeds the ${JSON_LIMIT_BYTES / 1024 / 1024} MiB limit`));
          return;
        }
        if (code === CLIENT_STALLED_CODE) {
          logger.info({ request_id: request.id, upstream: name }, 'client stalled mid-body');
          sendProblem(request, response, problems.requestTimeout(`No more of the request body arrived for ${timeoutMs} ms`));
          return;
        }
        const timedOut = code === TIMEOUT_CODE || code === 'ETIMEDOUT';
        const answered = response.locals.upstreamAnswered === true;
        const what = timedOut ? 'upstream timed out' : answered ? 'upstream connection ended early' : 'upstream unreachable';
        logger.warn({ request_id: request.id, upstream: name, code, err: error }, what);
        if (answered) return; // the service's answer stands; a truncated one is cut off (see proxyRes)
        sendProblem(
          request,
          response,
          timedOut
            ? problems.gatewayTimeout(`The ${name} service did not answer in time`)
            : problems.badGateway(`The ${name} service is unreachable`),
        );
      },
    },
  });
  const byStatus = new Map<number, HistogramSeries>();
  const observe = (status: number, seconds: number) => {
    let series = byStatus.get(status);
    if (!series) byStatus.set(status, (series = duration.series({ upstream: name, status: String(status) })));
    series.observe(seconds);
  };
  return {
    handler: (req, res, next) => {
      const started = performance.now();
      // `on`, not `once`: a response emits `finish` at most once, and once() would bind a wrapper per request.
      res.on('finish', () => observe(res.statusCode, (performance.now() - started) / 1000));
      return proxy(req, res, next);
    },
    close: () => agent.destroy(),
  };
}
