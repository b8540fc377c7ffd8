import fc from 'fast-check';
import { hostileValue } from './hostile-values';

type Schema = Record<string, any>;

/** Dates shaped like `YYYY-MM-DD` that no calendar (or PostgreSQL, which has no year 0000) holds. */
export const impossibleDate = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: 2020, max: 2030 }),
      fc.constantFrom('02-30', '02-31', '04-31', '06-31', '09-31', '11-31', '13-01', '00-10', '01-00', '01-32'),
    )
    .map(([y, md]) => `${y}-${md}`),
  fc.constantFrom('0000-01-01', '2026-02-29', '2100-02-29'),
);

/** Timestamps a format check may pass but PostgreSQL refuses: offsets beyond ±15:59, impossible dates, year 0000 or 10000+, leap seconds. */
export const refusedTimestamp = fc.oneof(
  fc
    .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 16, max: 99 }), fc.integer({ min: 0, max: 59 }))
    .map(([sign, h, m]) => `2026-01-01T00:00:00${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
  fc
    .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 15 }), fc.integer({ min: 60, max: 99 }))
    .map(([sign, h, m]) => `2026-01-01T00:00:00${sign}${String(h).padStart(2, '0')}:${m}`),
  impossibleDate.map((d) => `${d}T12:00:00Z`),
  fc.integer({ min: 10000, max: 300000 }).map((y) => `${y}-01-01T00:00:00Z`),
  fc.constantFrom('2026-06-30T23:59:60Z', '2026-01-01T24:00:00Z', '2026-01-01T00:00:00+05', '2026-01-01T00:00:00.1234567890123Z'),
);

const FORMAT_SAMPLES: Record<string, fc.Arbitrary<string>> = {
  date: fc.oneof(
    {
      weight: 4,
      arbitrary: fc.date({ min: new Date('2020-01-01'), max: new Date(), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    },
    { weight: 1, arbitrary: impossibleDate },
  ),
  'date-time': fc.oneof(
    {
      weight: 4,
      arbitrary: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
          fc.integer({ min: -959, max: 959 }),
        )
        .map(
          ([d, offset]) =>
            `${d.toISOString().slice(0, 19)}${offset < 0 ? '-' : '+'}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}:${String(Math.abs(offset) % 60).padStart(2, '0')}`,
        ),
    },
    { weight: 2, arbitrary: refusedTimestamp },
  ),
  email: fc.constantFrom('ana@example.com', 'b.c+tag@example.org'),
  uri: fc.constantFrom('https://example.com/a', 'https://portal.example.com/claims/1'),
  uuid: fc.uuid(),
};

/**
 * A fast-check arbitrary producing values that (mostly) satisfy a JSON Schema 2020-12 of the kind the
 * services publish in /openapi.json: objects, arrays, strings with formats, enums, anyOf/oneOf.
 */
export function fromSchema(schema: Schema | boolean | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (schema === undefined || schema === true || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  if (schema === false) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length > 0)
    return fc.oneof(...alternatives.map((s: Schema) => fromSchema({ ...schema, anyOf: undefined, oneOf: undefined, ...s }, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return fromSchema(Object.assign({}, ...schema.allOf), depth + 1);
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ['object'] : [];
  if (type.length > 1) return fc.oneof(...type.map((t: string) => fromSchema({ ...schema, type: t }, depth)));
  switch (type[0]) {
    case 'object': {
      const properties: Record<string, Schema> = schema.properties ?? {};
      const required = new Set<string>(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) record[name] = fromSchema(property, depth + 1);
      return fc.record(record, { requiredKeys: [...required].filter((key) => key in record) });
    }
    case 'array':
      return fc.array(fromSchema(schema.items, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'string': {
      if (schema.format && FORMAT_SAMPLES[schema.format]) return FORMAT_SAMPLES[schema.format];
      if (schema.pattern) {
        try {
          return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 200));
        } catch {
          // a pattern fast-check cannot invert: plain strings
        }
      }
      const min = schema.minLength ?? 1;
      return fc.string({ minLength: min, maxLength: Math.max(min, Math.min(schema.maxLength ?? 40, 40)) });
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** JSON pointers of every property a value has (objects and arrays, depth-first). */
function pointers(value: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  if (value && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      out.push([...prefix, key]);
      pointers((value as Record<string, unknown>)[key], [...prefix, key], out);
    }
  }
  return out;
}

function withChange(value: unknown, path: string[], change: (parent: any, key: string) => void): unknown {
  const copy = structuredClone(value) as any;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key];
  change(parent, path[path.length - 1]);
  return copy;
}

/** A valid value for `schema`, then bent: a field replaced by a hostile value, dropped, added or doubled. */
export function mutatedFromSchema(schema: Schema): fc.Arbitrary<unknown> {
  return fromSchema(schema).chain((valid) => {
    const paths = pointers(valid);
    const pick = paths.length > 0 ? fc.constantFrom(...paths) : fc.constant<string[]>([]);
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant(valid) },
      {
        weight: 5,
        arbitrary: fc
          .tuple(pick, hostileValue)
          .map(([path, hostile]) => (path.length ? withChange(valid, path, (p, k) => (p[k] = hostile)) : hostile)),
      },
      { weight: 2, arbitrary: pick.map((path) => (path.length ? withChange(valid, path, (p, k) => delete p[k]) : valid)) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            fc.constantFrom(
              'unknown_field',
              'adequacy_score',
              'adequacy_missing',
              'id',
              'claim_id',
              'created_by',
              'seq',
              'hash',
              'status',
              '__proto__',
              'constructor',
              '\u0000',
              'k\u0000y',
              '\ud800',
              '\udfff',
            ),
            hostileValue,
          )
          .map(([key, hostile]) =>
            valid && typeof valid === 'object' && !Array.isArray(valid) ? { ...(valid as object), [key]: hostile } : { [key]: hostile },
          ),
      },
      { weight: 1, arbitrary: hostileValue },
    );
  });
}
