import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { NextFunction, Request, Response } from 'express';
import { findUnstorableText } from './body';
import { findDisguisingText } from './display-text';
import { problems, type FieldError } from './problem';

/** A UUID in its textual form, any version, either case: what a uuid column takes without a cast error. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/** A real calendar date PostgreSQL stores: YYYY-MM-DD, year 0001 to 9999 (PostgreSQL has no year 0000). */
export function isStorableDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth;
}

/**
 * An RFC 3339 timestamp that PostgreSQL's timestamptz and JavaScript's Date both take as it is: a real
 * date (year 0001 to 9999), no leap second (neither can represent one), at most nanoseconds, and an offset
 * of at most ±15:59 (PostgreSQL refuses more, and real offsets stay within ±14:00).
 */
export function isStorableDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const [date, hour, minute, second, offsetHours = '0', offsetMinutes = '0'] = match.slice(1);
  return (
    isStorableDate(date) &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offsetHours) <= 15 &&
    Number(offsetMinutes) <= 59
  );
}

/**
 * The platform's one ajv instance: JSON Schema 2020-12, every format, all errors reported. `date` and
 * `date-time` are held to what PostgreSQL stores, so a timestamp it would refuse is a 400 naming its
 * pointer, in every schema, not a failed query.
 */
export const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv);
ajv.addFormat('date', isStorableDate);
ajv.addFormat('date-time', isStorableDateTime);

const compiled = new WeakMap<object, ValidateFunction>();

export function compile(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** A property name as a JSON Pointer (RFC 6901) reference token. */
function pointerToken(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

function toFieldError(error: ErrorObject): FieldError {
  if (error.keyword === 'additionalProperties') {
    const field = (error.params as { additionalProperty: string }).additionalProperty;
    return { pointer: `${error.instancePath}/${pointerToken(field)}`, message: 'is not an accepted field' };
  }
  if (error.keyword === 'required') {
    const field = (error.params as { missingProperty: string }).missingProperty;
    return { pointer: `${error.instancePath}/${pointerToken(field)}`, message: 'is required' };
  }
  return { pointer: error.instancePath || '/', message: error.message ?? 'is invalid' };
}

function describe(fieldErrors: FieldError[]): string {
  const [first] = fieldErrors;
  const where = first.pointer === '/' ? 'the value' : first.pointer.slice(1).replace(/\//g, '.');
  const more = fieldErrors.length > 1 ? ` (and ${fieldErrors.length - 1} more)` : '';
  return `${where} ${first.message}${more}`;
}

/** Validates `data` against `schema`; a violation is a 400 problem naming every bad field. */
export function assertValid<T>(schema: object, data: unknown, what = 'Request body'): T {
  const validate = compile(schema);
  if (!validate(data)) {
    const fieldErrors = (validate.errors ?? []).map(toFieldError);
    const problem = problems.badRequest(`${what}: ${describe(fieldErrors)}`, fieldErrors);
    throw problem;
  }
  const disguised = findDisguisingText(data);
  if (disguised !== undefined) {
    const fieldError = {
      pointer: disguised || '/',
      message: 'must not hold bidirectional control characters (U+202A–U+202E, U+2066–U+2069)',
    };
    throw problems.badRequest(`${what}: ${describe([fieldError])}, which would show the text in another order than it was written`, [
      fieldError,
    ]);
  }
  return data as T;
}

interface QuerySchema {
  properties?: Record<string, { type?: string | string[] }>;
}

/**
 * Query strings arrive as strings (or arrays when repeated). This converts them to the types the
 * schema declares before validating, so a query schema reads like any other schema.
 */
export function parseQuery<T>(schema: object, query: Record<string, unknown>): T {
  const properties = (schema as QuerySchema).properties ?? {};
  const coerced: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(query)) {
    const type = properties[name]?.type;
    if (type === 'array') coerced[name] = Array.isArray(raw) ? raw : [raw];
    else if (Array.isArray(raw))
      coerced[name] = raw; // repeated where one was expected: let the schema reject it
    else if ((type === 'integer' || type === 'number') && typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw))
      coerced[name] = Number(raw);
    else if (type === 'boolean' && (raw === 'true' || raw === 'false')) coerced[name] = raw === 'true';
    else coerced[name] = raw;
  }
  return assertValid<T>(schema, coerced, 'Query');
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // not percent-decodable: Express refuses it with 400 if a route reads it
  }
}

/**
 * For every route, before any handler: a path segment, query key or query value holding text PostgreSQL
 * cannot store (a NUL; a lone surrogate, should one arrive) is a 400, as jsonBody does for bodies.
 */
export function refuseUnstorableUrl(req: Request, _res: Response, next: NextFunction): void {
  if (findUnstorableText(req.path.split('/').map(decodedSegment)) !== undefined) {
    return next(problems.badRequest('The path holds text that cannot be stored: a NUL character or a lone UTF-16 surrogate'));
  }
  const pointer = findUnstorableText(req.query);
  if (pointer !== undefined) {
    return next(
      problems.badRequest(`Query: ${pointer.slice(1)} holds text that cannot be stored: a NUL character or a lone UTF-16 surrogate`, [
        { pointer, message: 'must be well-formed Unicode text without NUL characters' },
      ]),
    );
  }
  next();
}
