import type { RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Counter } from 'prom-client';
import { problems, sendProblem } from '@platform/http';
import type { ApiRoute } from './request-path';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WINDOW_MS = 60_000;

/**
 * `limit` writes a minute per client address (IPv6 by /56) to the public group; 0 turns it off.
 * Answers carry the IETF draft-8 `RateLimit-Policy` and `RateLimit` headers; a refusal is a 429
 * problem with `Retry-After`. The address is the one read before forwarding headers were replaced.
 */
export function publicWriteRateLimit(limit: number, rejections: Counter<'reason'>): RequestHandler {
  if (limit === 0) return (_req, _res, next) => next();
  const limiter = rateLimit({
    windowMs: WINDOW_MS,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (_req, res) => ipKeyGenerator(String(res.locals.clientAddress)),
    handler: (req, res) => {
      rejections.inc({ reason: 'rate_limited' });
      const retryAfter = Number(res.getHeader('Retry-After')) || WINDOW_MS / 1000;
      sendProblem(req, res, problems.tooManyRequests(retryAfter));
    },
  });
  // Decided here rather than in the limiter's `skip`: the limiter is asynchronous throughout, so every request
  // it saw, counted or not, went on only after two promises and a turn of the microtask queue.
  return (req, res, next) => {
    const publicWrite = (res.locals.apiRoute as ApiRoute | undefined)?.group === 'public' && WRITE_METHODS.has(req.method);
    return publicWrite ? limiter(req, res, next) : next();
  };
}
