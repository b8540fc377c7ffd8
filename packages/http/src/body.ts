import type { NextFunction, Request, Response } from 'express';
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

/** Runs on the raw text before JSON.parse sees it. */
function refuseUnsafeJson(text: string): void {
  const unsafe = findUnsafeJsonText(text);
  if (unsafe) throw problems.badRequest(`${unsafe.pointer === '/' ? 'the body' : unsafe.pointer} ${unsafe.message}`, [unsafe]);
}

/**
 * A refused body is not read on: the answer goes out at once with `Connection: close`, and the socket is
 * closed once it has, so a client sending gigabytes, or a chunked body that never ends, costs nothing more.
 */
function refuseAndClose(res: Response, problem: HttpProblem): HttpProblem {
  res.setHeader('Connection', 'close');
  res.once('finish', () => res.socket?.destroy());
  return problem;
}

const UTF8_CHARSET = /^utf-?8$/i;

const tooLargeJson = (res: Response) =>
  refuseAndClose(res, problems.payloadTooLarge(`The body exceeds the ${JSON_LIMIT_BYTES / 1024 / 1024} MiB limit`));

/**
 * Before anything is read or forwarded (the gateway runs it before proxying): a JSON body whose declared
 * Content-Length passes the cap is 413, and the connection closes after the answer.
 */
export function refuseDeclaredOversizeJson(req: Request, res: Response, next: NextFunction): void {
  const json = req.is(['application/json', 'application/*+json']);
  if (json && Number(req.get('content-length') ?? 0) > JSON_LIMIT_BYTES) return next(tooLargeJson(res));
  next();
}

/**
 * Reads a JSON body of at most JSON_LIMIT_BYTES: a declared Content-Length over it is refused before a byte
 * is read, and a body that grows past it is refused the moment it does (express.json read such a body to
 * its end before answering, and never answered one that did not end). UTF-8 only, not compressed.
 */
function readJsonText(req: Request, res: Response): Promise<string> {
  return new Promise((resolve, reject) => {
    const charset = /;\s*charset=([^;\s]+)/i.exec(req.get('content-type') ?? '')?.[1]?.replace(/"/g, '');
    if (charset && !UTF8_CHARSET.test(charset))
      return reject(problems.unsupportedMediaType('JSON is UTF-8 (RFC 8259); no other charset is read'));
    const encoding = req.get('content-encoding');
    if (encoding && encoding.toLowerCase() !== 'identity')
      return reject(problems.unsupportedMediaType('A compressed body is not accepted'));
    if (Number(req.get('content-length') ?? 0) > JSON_LIMIT_BYTES) return reject(tooLargeJson(res));
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= JSON_LIMIT_BYTES) return void chunks.push(chunk);
      cleanup();
      req.pause();
      reject(tooLargeJson(res));
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAborted = () => onError(problems.badRequest('The request was aborted'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/** The body as parsed JSON (undefined when empty), after the raw-text checks of findUnsafeJsonText. */
async function parseJson(req: Request, res: Response): Promise<unknown> {
  const text = await readJsonText(req, res);
  if (text.trim() === '') return undefined;
  refuseUnsafeJson(text);
  try {
    return JSON.parse(text);
  } catch {
    throw problems.malformedJson();
  }
}

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
  parseJson(req, res).then((body) => {
    if (body === undefined) return next(problems.badRequest('The body is empty; a JSON object is required'));
    req.body = body;
    const unstorable = findUnstorableText(req.body);
    if (unstorable !== undefined) {
      return next(
        problems.badRequest(`${unstorable || 'the body'} holds text that cannot be stored: a NUL character or a lone UTF-16 surrogate`, [
          { pointer: unstorable || '/', message: 'must be well-formed Unicode text without NUL characters' },
        ]),
      );
    }
    next();
  }, next);
}

/** Whether the request carries a body: a Content-Length above 0, or chunked. */
const sendsBody = (req: Request) => Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;

const NO_BODY_DETAIL = 'This operation takes no body; send the request without one';

/**
 * For routes that take no body: one sent anyway is refused (400) rather than ignored, so a client that
 * believes it passed options learns it did not. It is not read: the connection closes after the answer.
 * Every documented operation without a request body runs it (tests/architecture/request-bodies.test.ts);
 * GET and HEAD need not, refuseBodyOnRead refuses theirs for every route.
 */
export function noBody(req: Request, res: Response, next: NextFunction): void {
  if (sendsBody(req)) {
    res.setHeader('Connection', 'close');
    return next(problems.badRequest(NO_BODY_DETAIL));
  }
  next();
}

/**
 * One of the skeleton's first steps (createServiceApp): no GET or HEAD of any process takes a body, so one
 * sent is 400 before any route runs, unread, and the connection closes.
 */
export function refuseBodyOnRead(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'GET' || req.method === 'HEAD') return noBody(req, res, next);
  next();
}
