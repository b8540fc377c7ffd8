import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { problems, type FieldError } from './problem';

/** The platform's one ajv instance: JSON Schema 2020-12, every format, all errors reported. */
export const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv);

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
    else if (Array.isArray(raw)) coerced[name] = raw; // repeated where one was expected: let the schema reject it
    else if ((type === 'integer' || type === 'number') && typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw)) coerced[name] = Number(raw);
    else if (type === 'boolean' && (raw === 'true' || raw === 'false')) coerced[name] = raw === 'true';
    else coerced[name] = raw;
  }
  return assertValid<T>(schema, coerced, 'Query');
}
