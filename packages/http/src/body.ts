import express, { type NextFunction, type Request, type Response } from 'express';
import { problems } from './problem';

export const JSON_LIMIT_BYTES = 1024 * 1024;

const parseJson = express.json({ limit: JSON_LIMIT_BYTES, strict: false, type: () => true });

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
// eslint-disable-next-line no-control-regex -- NUL is exactly what PostgreSQL text cannot hold
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const storable = (text: string) => !UNSTORABLE.test(text);

/**
 * The JSON Pointer of the first string (value or key) that PostgreSQL cannot store — a NUL character, or a
 * lone surrogate that JSON allows as an escape but UTF-8 cannot encode — or undefined when there is none.
 * Iterative, so a hostile, deeply nested body cannot overflow the stack.
 */
export function findUnstorableText(value: unknown): string | undefined {
  const pending: { value: unknown; pointer: string }[] = [{ value, pointer: '' }];
  while (pending.length > 0) {
    const { value: current, pointer } = pending.pop()!;
    if (typeof current === 'string') {
      if (!storable(current)) return pointer;
    } else if (current && typeof current === 'object') {
      const entries = Array.isArray(current) ? current.map((item, index) => [String(index), item] as const) : Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, item] = entries[index];
        const at = `${pointer}/${escapePointer(key)}`;
        if (!storable(key)) return at;
        pending.push({ value: item, pointer: at });
      }
    }
  }
  return undefined;
}

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
    const unstorable = findUnstorableText(req.body);
    if (unstorable !== undefined) {
      return next(problems.badRequest(`${unstorable || 'the body'} holds text that cannot be stored: a NUL character or a lone UTF-16 surrogate`, [
        { pointer: unstorable || '/', message: 'must be well-formed Unicode text without NUL characters' },
      ]));
    }
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
