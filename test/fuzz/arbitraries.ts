/**
 * fast-check arbitraries for the fuzz suite: values drawn from a contract's
 * type (an OpenAPI schema, a GraphQL input type) or, some of the time, a
 * hostile value of another shape: NUL bytes, lookalikes, huge numbers, deep
 * nesting, empty strings, wrong types.
 */
import fc from 'fast-check';

/** Names every object answers to: an option named so was once accepted and dropped where `foo` is refused. */
export const OBJECT_PROTOTYPE_KEYS = [
  'toString',
  'constructor',
  '__proto__',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'prototype',
];

/** Strings that broke or might break something: database encodings, parsers, durations, lookalikes. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'scopa\u0000',
  '\ud800',
  '\uFEFF',
  '7\u00c4',
  '７D',
  'Ｓcopa',
  'KD\u0301',
  '%00',
  '%',
  '%E0%A4%A',
  '%C0%AF',
  '../../etc/passwd',
  "' OR 1=1 --",
  '"; DROP TABLE matches; --',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'P999999999Y',
  'PT99999999999999999999S',
  'P2147483648D',
  'PT0S',
  'PT-1S',
  'P1W',
  'PT1H',
  'P1D',
  '9'.repeat(400),
  'x'.repeat(20_000),
  'clock',
  'bot',
  'seq4:seat0',
  'bot:greedy',
  'http://127.0.0.1:5432/',
  'http://localhost:6379/',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]/',
  // Members of Object.prototype: as option keys, lobby filters, names (a lookup through `in` or `obj[key]` finds them).
  ...OBJECT_PROTOTYPE_KEYS,
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom('\u0000', '\ud800', '\uFFFF')).map(([s, c]) => s + c) },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(-1, 0, 1, 2 ** 31, 2 ** 31 - 1, -(2 ** 31), 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, 0.5, -0),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A JSON value nested `depth` deep (arrays or objects), as a JSON text: JSON.stringify would do, but this also builds 100,000 deep cheaply. */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** A marker that the body builder replaces with a deeply nested JSON text. */
export interface DeepMarker {
  __deep: { depth: number; kind: 'array' | 'object' };
}

export const deepMarker: fc.Arbitrary<DeepMarker> = fc.record({
  __deep: fc.record({ depth: fc.constantFrom(50, 1_500, 10_000), kind: fc.constantFrom('array' as const, 'object' as const) }),
});

/** JSON.stringify, with every DeepMarker replaced by its deep JSON text. */
export function toJsonText(value: unknown): string {
  const deep: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && '__deep' in (v as object)) {
      const { depth, kind } = (v as DeepMarker).__deep;
      deep.push(deepJson(depth, kind));
      return `__DEEP_${deep.length - 1}__`;
    }
    return v;
  });
  return (text ?? 'null').replace(/"__DEEP_(\d+)__"/g, (_m, i: string) => deep[Number(i)]);
}

/** Any JSON value of the wrong shape for most places. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }) },
  { weight: 1, arbitrary: deepMarker },
);

/** Sometimes the well-typed value, sometimes a hostile one. */
export function maybeHostile<T>(typed: fc.Arbitrary<T>, hostileWeight = 1, typedWeight = 3): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: typedWeight, arbitrary: typed as fc.Arbitrary<unknown> }, { weight: hostileWeight, arbitrary: hostileValue });
}
