import fc from 'fast-check';

/** Strings that have broken parsers, validators, file systems and databases before. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(64),
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/dev/zero',
  "' OR '1'='1' --",
  '"; DROP TABLE claims; --',
  '${jndi:ldap://127.0.0.1/x}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '\u202egpj.exe',
  '\u200b\u200c\u200d\ufeff',
  'é'.normalize('NFD'),
  '\ud800',
  '\udfff\ud800',
  '𝕬𝖓𝖆 𝕽𝖚𝖎𝖟',
  '🏳️‍🌈'.repeat(50),
  'ﷺ'.repeat(100),
  'Ω'.repeat(3000),
  '2026-02-30',
  // what a JSON Schema format check may pass but PostgreSQL refuses (or JavaScript cannot represent)
  '2026-01-01T00:00:00-16:00',
  '2026-01-01T00:00:00+20:00',
  '2026-01-01T00:00:00+15:60',
  '2026-02-30T00:00:00Z',
  '2026-02-29T12:00:00+01:00',
  '0000-01-01T00:00:00Z',
  '10000-01-01T00:00:00Z',
  '2026-06-30T23:59:60Z',
  '2026-01-01T00:00:00.1111111111111111111111Z',
  '0000-01-01',
  '10000-01-01',
  '2026-02-29',
  '2026-13-01',
  '0000-00-00',
  '+275760-09-13',
  '9999-12-31',
  '1970-01-01T00:00:00Z',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '0x10',
  '99999999999999999999999999.999',
  '1.005',
  'null',
  'true',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  '%00',
  '%2e%2e%2f',
  '\r\nX-Injected: 1',
  'mailto:a@b',
  'javascript:alert(1)',
  'https://127.0.0.1:1/',
  'https://[::1]/',
  'file:///etc/passwd',
];

const hugeString = fc.oneof(
  fc.integer({ min: 5000, max: 200000 }).map((n) => 'A'.repeat(n)),
  fc.integer({ min: 1024 * 1024, max: 1024 * 1024 + 4096 }).map((n) => 'B'.repeat(n)),
  fc.integer({ min: 1000, max: 20000 }).map((n) => '\u0000'.repeat(n)),
);

const weirdNumber = fc.constantFrom(
  0,
  -0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  -(2 ** 63),
  1e-320,
  0.1 + 0.2,
  101,
  255,
  256,
  65536,
  Number.MAX_SAFE_INTEGER,
  2 ** 64,
);

/** A deeply nested value (arrays or objects), as data. */
export const deepValue = fc.integer({ min: 50, max: 8000 }).chain((depth) =>
  fc.boolean().map((arrays) => {
    let value: unknown = 'bottom';
    for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
    return value;
  }),
);

/** Objects whose own keys try prototype pollution when merged or assigned naively. */
export const pollutingObject = fc.constantFrom(
  JSON.parse('{"__proto__": {"polluted": "yes", "isAdmin": true}}'),
  JSON.parse('{"constructor": {"prototype": {"polluted": "yes"}}}'),
  JSON.parse('{"__proto__": null}'),
  JSON.parse('{"hasOwnProperty": "x", "toString": "y", "valueOf": 1}'),
);

/** One hostile JSON value of any shape. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 1, arbitrary: hugeString },
  { weight: 2, arbitrary: weirdNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], [[]], { '': '' }) },
  { weight: 1, arbitrary: deepValue },
  { weight: 2, arbitrary: pollutingObject },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...NASTY_STRINGS), { minLength: 100, maxLength: 2000 }) },
);

export const nastyString = fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.string({ unit: 'binary', maxLength: 300 }), hugeString);

/** Hostile strings short enough for a URL or a header (a huge one is refused by Node's 16 KiB head limit anyway). */
export const nastyShortString = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.constant('q'.repeat(20000)),
);

/** Raw body texts that are not (quite) JSON. */
export function rawBodyMutations(valid: string): fc.Arbitrary<string | Buffer> {
  return fc.oneof(
    fc.integer({ min: 0, max: Math.max(0, valid.length - 1) }).map((n) => valid.slice(0, n)),
    fc.constant(`\ufeff${valid}`),
    fc.constant(valid.replace('{', '{"__proto__": {"polluted": "yes"}, ')),
    fc.constant(valid.replace('{', '{"constructor": {"prototype": {"polluted": "yes"}}, ')),
    fc.constant(`${valid}${valid}`),
    fc.constant(`${valid} trailing`),
    fc.constant(valid.replace(/"(\w+)":/, '"$1": 1, "$1":')),
    fc.constant('['.repeat(100000) + ']'.repeat(100000)),
    fc.constant('{"a":'.repeat(50000) + '1' + '}'.repeat(50000)),
    fc.constant(Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0xc0, 0xae, 0xed, 0xa0, 0x80])),
    fc.constant(Buffer.concat([Buffer.from(valid.slice(0, 20)), Buffer.from([0xc3, 0x28, 0xe2, 0x82]), Buffer.from(valid.slice(20))])),
    fc.constant('null'),
    fc.constant('"just a string"'),
    fc.constant('12345678901234567890e99999'),
    // integers a JSON number cannot hold exactly, which parsing would silently round
    fc.constant(valid.replace('{', '{"n": 12345678901234567890, ')),
    fc.constant(valid.replace('{', '{"n": [-9007199254740993], ')),
    // half a million unclosed brackets: under the 1 MiB cap, refused before parsing
    fc.constant('['.repeat(500000)),
    fc.constant(`{"a":${'{"a":'.repeat(8000)}1${'}'.repeat(8001)}`),
    // text PostgreSQL cannot store, as JSON escapes: NUL and lone surrogates in keys and values
    fc.constant(valid.replace('{', '{"k\\u0000": 1, ')),
    fc.constant(valid.replace('{', '{"\\ud800": "\\udfff", ')),
    fc.constant(''),
    fc.string({ unit: 'binary', maxLength: 500 }),
  );
}
