import express, { type NextFunction, type Request, type Response } from 'express';
import { problems } from './problem';

export const JSON_LIMIT_BYTES = 1024 * 1024;

const parseJson = express.json({ limit: JSON_LIMIT_BYTES, strict: false, type: () => true });

/**
 * For routes that take JSON: anything but `application/json` (or `+json`) is 415, an empty body is
 * 400, over 1 MiB is 413, and what arrives is parsed into `req.body`.
 */
export function jsonBody(req: Request, res: Response, next: NextFunction): void {
  if (!req.is(['application/json', 'application/*+json'])) {
    next(problems.unsupportedMediaType('Content-Type must be application/json'));
    return;
  }
  parseJson(req, res, (error?: unknown) => {
    if (error) return next(error);
    if (req.body === undefined) return next(problems.badRequest('The body is empty; a JSON object is required'));
    next();
  });
}

/** For routes that take no body: a declared one is refused rather than ignored. */
export function noBody(req: Request, _res: Response, next: NextFunction): void {
  const length = Number(req.get('content-length') ?? 0);
  if (length > 0 || req.get('transfer-encoding')) {
    if (req.is(['application/json', 'application/*+json'])) return jsonBody(req, _res, next);
    return next(problems.unsupportedMediaType('This operation takes no body'));
  }
  next();
}
