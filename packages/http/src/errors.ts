import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { HttpProblem, PROBLEM_CONTENT_TYPE, problems } from './problem';

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EPIPE',
  'ENOTFOUND',
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/** True for errors that mean a dependency (the database) is unreachable, not that the request is wrong. */
export function isDependencyUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, name, message } = error as { code?: string; name?: string; message?: string };
  if (code && UNAVAILABLE_CODES.has(code)) return true;
  if (name === 'KnexTimeoutError') return true;
  return /Connection terminated|connection error|terminating connection|Connection ended/i.test(message ?? '');
}

/** How long, and how much more of an unwanted body, a closing connection still reads after its answer. */
const LINGER_MS = 2000;
const LINGER_BYTES = 8 * 1024 * 1024;

/**
 * Answers with `Connection: close` and then closes the way nginx's lingering close does. Node would destroy
 * the socket as soon as the answer is flushed, and with body bytes still unread that is a TCP reset, which
 * can make the client (or a proxy in front) lose the answer before reading it. Instead: send FIN, discard
 * what still arrives for at most LINGER_MS or LINGER_BYTES, then close.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  const socket = req.socket as Socket & { destroySoon?: () => void };
  socket.destroySoon = () => {
    if (socket.destroyed) return;
    socket.end();
    req.unpipe(); // a request still piped somewhere (a proxy's upstream) would hold the socket paused
    req.resume();
    const limit = socket.bytesRead + LINGER_BYTES;
    socket.on('data', () => {
      if (socket.bytesRead > limit) socket.destroy();
    });
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

export function sendProblem(req: Request, res: Response, problem: HttpProblem): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(problem.status);
  // Refused before its body arrived (over a size cap, unauthenticated, wrong type): close the connection
  // instead of letting Node read the rest of a possibly huge body to keep the connection alive.
  if (!req.complete) closeAfterAnswer(req, res);
  for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', PROBLEM_CONTENT_TYPE);
  res.end(JSON.stringify(problem.body(req.originalUrl.split('?')[0], req.id)));
}

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
}

/** Translates what express and body-parser throw into the problem the contract names. */
function toProblem(error: unknown): HttpProblem | undefined {
  if (error instanceof HttpProblem) return error;
  const parserError = error as BodyParserError;
  switch (parserError?.type) {
    case 'entity.parse.failed':
      return problems.malformedJson();
    case 'entity.too.large':
      return problems.payloadTooLarge('The body exceeds the 1 MiB limit');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return problems.unsupportedMediaType(parserError.message ?? 'Unsupported encoding');
    case 'request.aborted':
      return problems.badRequest('The request was aborted');
    case 'request.size.invalid':
      return problems.badRequest('The body is shorter than its Content-Length');
  }
  if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    return new HttpProblem(parserError.status, 'bad-request', 'Bad request', 'The request could not be read');
  }
  if (isDependencyUnavailable(error)) return problems.serviceUnavailable('A dependency is unavailable; retry shortly');
  return undefined;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const problem = toProblem(error);
    if (problem) {
      if (problem.status >= 500) logger.warn({ err: error, request_id: req.id }, problem.detail ?? problem.title);
      sendProblem(req, res, problem);
      return;
    }
    logger.error({ err: error, request_id: req.id, path: req.originalUrl }, 'unhandled error');
    sendProblem(req, res, problems.internal());
  };
}

export function notFoundHandler(req: Request, res: Response): void {
  sendProblem(req, res, problems.notFound(`No route for ${req.method} ${req.path}`));
}
