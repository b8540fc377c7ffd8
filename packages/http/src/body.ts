import express, { type NextFunction, type Request, type Response } from 'express';
import { HttpProblem, problems, type FieldError } from './problem';

export const JSON_LIMIT_BYTES = 1024 * 1024;

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
// eslint-disable-next-line no-control-regex -- NUL is exactly what PostgreSQL text cannot hold
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const storable = (text: string) => !UNSTORABLE.test(text);

/**
 * How deeply a JSON body may nest: far more than any document of the platform needs (an evidence record's
 * `data` may itself nest 63 levels), far less than what could exhaust the stack of code that recurses.
 */
export const MAX_JSON_DEPTH = 64;

/** Integers beyond ±(2^53 − 1) cannot be held exactly by a JSON number in JavaScript (RFC 7493, I-JSON). */
const INTEGER_LITERAL = /^-?\d+$/;

/** Characters a JSON number can be made of: the scan skips a number token as a whole. */
const NUMBER_CHARACTER = /[-+.eE0-9]/;

interface OpenContainer {
  array: boolean;
  /** Index of the current element of an array. */
  index: number;
  /** Where the current member's key (with its quotes) sits in the text of an object. */
  keyStart: number;
  keyEnd: number;
  expectingKey: boolean;
}

function pointerOf(text: string, open: OpenContainer[]): string {
  return open
    .map((container) => {
      if (container.array) return `/${container.index}`;
      const raw = text.slice(container.keyStart, container.keyEnd);
      try {
        return `/${escapePointer(JSON.parse(raw) as string)}`;
      } catch {
        return `/${escapePointer(raw.slice(1, -1))}`;
      }
    })
    .join('');
}

/**
 * One linear pass over raw JSON text, before anything parses it: the first place that nests deeper than
 * MAX_JSON_DEPTH, or an integer literal that would not survive parsing exactly, with its JSON Pointer.
 * Brackets and digits inside strings are skipped (escapes included); anything else that is not JSON is
 * left to the parser that runs afterwards.
 */
export function findUnsafeJsonText(text: string): FieldError | undefined {
  const open: OpenContainer[] = [];
  let inString = false;
  let escaped = false;
  let stringStart = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') {
        inString = false;
        const top = open[open.length - 1];
        if (top?.expectingKey) Object.assign(top, { keyStart: stringStart, keyEnd: i + 1, expectingKey: false });
      }
    } else if (c === '"') {
      inString = true;
      stringStart = i;
    } else if (c === '[' || c === '{') {
      if (open.length >= MAX_JSON_DEPTH)
        return { pointer: pointerOf(text, open) || '/', message: `nests deeper than ${MAX_JSON_DEPTH} levels` };
      open.push({ array: c === '[', index: 0, keyStart: 0, keyEnd: 0, expectingKey: c === '{' });
    } else if (c === ']' || c === '}') {
      open.pop();
    } else if (c === ',') {
      const top = open[open.length - 1];
      if (top?.array) top.index += 1;
      else if (top) top.expectingKey = true;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let end = i + 1;
      while (end < text.length && NUMBER_CHARACTER.test(text[end])) end += 1;
      const token = text.slice(i, end);
      if (INTEGER_LITERAL.test(token) && !Number.isSafeInteger(Number(token))) {
        return {
          pointer: pointerOf(text, open) || '/',
          message: 'is an integer beyond ±9007199254740991 (2^53 − 1), which JSON numbers cannot hold exactly; send it as a string',
        };
      }
      i = end - 1;
    }
  }
  return undefined;
}

/** Carries a problem out of body-parser's `verify` hook, which wraps (and decorates) whatever it throws. */
class RefusedBeforeParsing extends Error {
  constructor(readonly problem: HttpProblem) {
    super(problem.message);
  }
}

/** Runs on the raw bytes before JSON.parse sees them. */
function refuseUnsafeJson(_req: unknown, _res: unknown, raw: Buffer): void {
  // JSON is UTF-8 (RFC 8259); in any other charset the structural characters are still single bytes
  const unsafe = findUnsafeJsonText(raw.toString('utf8'));
  if (unsafe)
    throw new RefusedBeforeParsing(
      problems.badRequest(`${unsafe.pointer === '/' ? 'the body' : unsafe.pointer} ${unsafe.message}`, [unsafe]),
    );
}

const parseJson = express.json({ limit: JSON_LIMIT_BYTES, strict: false, type: () => true, verify: refuseUnsafeJson });

/**
 * The JSON Pointer of the first string (value or key) for which `isRefused` holds, or undefined when there
 * is none. Iterative, so a hostile, deeply nested body cannot overflow the stack.
 */
export function findRefusedText(value: unknown, isRefused: (text: string) => boolean): string | undefined {
  const pending: { value: unknown; pointer: string }[] = [{ value, pointer: '' }];
  while (pending.length > 0) {
    const { value: current, pointer } = pending.pop()!;
    if (typeof current === 'string') {
      if (isRefused(current)) return pointer;
    } else if (current && typeof current === 'object') {
      const entries = Array.isArray(current) ? current.map((item, index) => [String(index), item] as const) : Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, item] = entries[index];
        const at = `${pointer}/${escapePointer(key)}`;
        if (isRefused(key)) return at;
        pending.push({ value: item, pointer: at });
      }
    }
  }
  return undefined;
}

/**
 * The JSON Pointer of the first string (value or key) that PostgreSQL cannot store — a NUL character, or a
 * lone surrogate that JSON allows as an escape but UTF-8 cannot encode — or undefined when there is none.
 */
export function findUnstorableText(value: unknown): string | undefined {
  return findRefusedText(value, (text) => !storable(text));
}

/**
 * For routes that take JSON: anything but `application/json` (or `+json`) is 415, an empty body is
 * 400, over 1 MiB is 413, nesting deeper than MAX_JSON_DEPTH or an integer beyond 2^53 − 1 is 400 (found
 * in the raw text, before parsing), and what arrives is parsed into `req.body`.
 */
export function jsonBody(req: Request, res: Response, next: NextFunction): void {
  if (!req.is(['application/json', 'application/*+json'])) {
    next(problems.unsupportedMediaType('Content-Type must be application/json'));
    return;
  }
  parseJson(req, res, (error?: unknown) => {
    if (error) return next(error instanceof RefusedBeforeParsing ? error.problem : error);
    if (req.body === undefined) return next(problems.badRequest('The body is empty; a JSON object is required'));
    const unstorable = findUnstorableText(req.body);
    if (unstorable !== undefined) {
      return next(
        problems.badRequest(`${unstorable || 'the body'} holds text that cannot be stored: a NUL character or a lone UTF-16 surrogate`, [
          { pointer: unstorable || '/', message: 'must be well-formed Unicode text without NUL characters' },
        ]),
      );
    }
    next();
  });
}

/**
 * For routes that take no body: one sent anyway is refused (400) rather than ignored, so a client that
 * believes it passed options learns it did not. It is not read: the connection closes after the answer.
 */
export function noBody(req: Request, res: Response, next: NextFunction): void {
  const length = Number(req.get('content-length') ?? 0);
  if (length > 0 || req.get('transfer-encoding')) {
    res.setHeader('Connection', 'close');
    return next(problems.badRequest('This operation takes no body; send the request without one'));
  }
  next();
}
