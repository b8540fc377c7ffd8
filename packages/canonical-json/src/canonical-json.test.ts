import { createHash } from 'node:crypto';
import { MAX_VALUE_DEPTH, canonicalJson, canonicalSha256 } from './index';

const nestedArrays = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
};

describe('canonicalJson (RFC 8785)', () => {
  it('serialises the example of RFC 8785 §3.2.2 exactly', () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
        '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it.each([
    [0, '0'],
    [-0, '0'],
    [1e21, '1e+21'],
    [1e-7, '1e-7'],
    [0.000001, '0.000001'],
    [123456789012345680000, '123456789012345680000'],
    [9007199254740991, '9007199254740991'],
    [-1.5e-300, '-1.5e-300'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
  ])('serialises the number %p as %s (ECMAScript shortest round trip, RFC 8785 appendix B)', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('orders keys by their UTF-16 code units (RFC 8785 §3.2.3), recursively', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    expect(canonicalJson({ b: { z: 1, a: 2 }, a: [{ y: 1, x: 2 }] })).toBe('{"a":[{"x":2,"y":1}],"b":{"a":2,"z":1}}');
  });

  it('escapes only what JSON requires, with lowercase \\u00xx for other control characters', () => {
    expect(canonicalJson('\u0000\u001f\b\t\n\f\r"\\/é€😀')).toBe('"\\u0000\\u001f\\b\\t\\n\\f\\r\\"\\\\/é€😀"');
  });

  it('gives the same digest for the same JSON in any key order', () => {
    expect(canonicalSha256({ a: 1, b: [true, null] })).toBe(canonicalSha256({ b: [true, null], a: 1 }));
    expect(canonicalSha256({ a: 1 })).toBe(createHash('sha256').update('{"a":1}', 'utf8').digest('hex'));
  });

  it(`accepts ${MAX_VALUE_DEPTH} levels of nesting and refuses one more with a RangeError, not a stack overflow`, () => {
    expect(() => canonicalJson(nestedArrays(MAX_VALUE_DEPTH))).not.toThrow();
    expect(() => canonicalJson(nestedArrays(MAX_VALUE_DEPTH + 1))).toThrow(RangeError);
    expect(() => canonicalJson(nestedArrays(100_000))).toThrow(/nests deeper than/);
  });

  it('refuses a value that has no JSON representation', () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });
});
