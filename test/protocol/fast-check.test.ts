import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { compileCheck, inputRefined, type Check } from '../../src/protocol/fast-check.js';
import * as responseErrors from '../../src/protocol/response-errors.js';
import * as v03 from '../../src/protocol/v03/schemas.js';
import * as v1 from '../../src/protocol/v1/schemas.js';
import { checkWire } from '../../src/protocol/validate.js';
import { sseFrames } from './fixtures.js';

/** Every zod schema the protocol modules export, by name. */
const schemas: Array<[string, z.ZodType]> = Object.entries({ v1, v03, 'response-errors': responseErrors }).flatMap(([module, exports]) =>
  Object.entries(exports).flatMap(([name, s]): Array<[string, z.ZodType]> => (s instanceof z.ZodType ? [[`${module}.${name}`, s]] : [])),
);

/** Every object and array inside every captured official-server exchange (bodies and SSE frames). */
function fixtureValues(): unknown[] {
  const dir = fileURLToPath(new URL('../interop/fixtures/', import.meta.url));
  const seen = new Map<string, unknown>();
  const collect = (v: unknown): void => {
    if (typeof v !== 'object' || v === null) return;
    seen.set(JSON.stringify(v), v);
    for (const child of Object.values(v)) collect(child);
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const fx = JSON.parse(readFileSync(dir + file, 'utf8')) as { response: { raw?: string } };
    collect(fx);
    if (fx.response.raw !== undefined) collect(sseFrames(fx.response.raw));
  }
  return [...seen.values()];
}

const values = fixtureValues();
const zodSays = (s: z.ZodType, v: unknown) => s.safeParse(v).success;

/** Small deterministic PRNG (mulberry32): the sweep is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = Record<string, unknown> | unknown[];

/** The paths to every object and array inside `v` (`[]` is `v` itself). */
function containers(v: unknown, path: PropertyKey[] = [], out: PropertyKey[][] = []): PropertyKey[][] {
  if (typeof v !== 'object' || v === null) return out;
  out.push(path);
  for (const [k, child] of Object.entries(v)) containers(child, [...path, Array.isArray(v) ? Number(k) : k], out);
  return out;
}

const REPLACEMENTS: readonly unknown[] = [null, undefined, 1, Number.NaN, '', [], {}, true];

/** Every key the fixtures use, so mutations also add declared keys a value lacks. */
const vocabulary = [...new Set(values.flatMap((v) => (Array.isArray(v) ? [] : Object.keys(v as object))))].sort();

/** One mutation of a deep copy of `base`, chosen by `rand`: the mutated value and what was done. */
function mutate(base: unknown, rand: () => number): [unknown, string] {
  const root: unknown = structuredClone(base);
  const paths = containers(root);
  const path = paths[Math.floor(rand() * paths.length)] ?? [];
  const parentPath = path.slice(0, -1);
  let target = root as Json;
  for (const k of path) target = (target as Record<PropertyKey, unknown>)[k] as Json;
  const t = target as Record<PropertyKey, unknown>;
  const keys = Object.keys(t);
  const key = rand() < 0.3 ? (vocabulary[Math.floor(rand() * vocabulary.length)] ?? 'x') : (keys[Math.floor(rand() * keys.length)] ?? 'x');
  const op = Math.floor(rand() * (REPLACEMENTS.length + 3));
  const where = [...path, key].join('.');
  if (op < REPLACEMENTS.length) {
    t[key] = REPLACEMENTS[op];
    return [root, `${where} = ${String(REPLACEMENTS[op])}`];
  }
  if (op === REPLACEMENTS.length) {
    delete t[key];
    return [root, `delete ${where}`];
  }
  if (op === REPLACEMENTS.length + 1) {
    t[`x-unknown-${keys.length}`] = 'extra';
    return [root, `add unknown key at ${path.join('.')}`];
  }
  // Wrap the container in an array, in place (or the root itself).
  if (path.length === 0) return [[root], 'wrap root in array'];
  let parent = root as Record<PropertyKey, unknown>;
  for (const k of parentPath) parent = parent[k] as Record<PropertyKey, unknown>;
  const last = path[path.length - 1] as PropertyKey;
  parent[last] = [parent[last]];
  return [root, `wrap ${path.join('.')} in array`];
}

describe('compileCheck: a predicate that answers what safeParse answers', () => {
  it('is cached per schema and typed as a plain predicate', () => {
    const s = z.object({ a: z.string() });
    expect(compileCheck(s)).toBe(compileCheck(s));
    expectTypeOf(compileCheck(s)).toEqualTypeOf<Check>();
    expectTypeOf<Check>().toEqualTypeOf<(value: unknown) => boolean>();
  });

  it('covers every protocol schema', () => {
    expect(schemas.length).toBeGreaterThanOrEqual(30);
    expect(values.length).toBeGreaterThan(200);
  });

  it.each(schemas)('%s agrees with zod on every captured fixture value', (_name, schema) => {
    const check = compileCheck(schema);
    const disagreements = values.filter((v) => check(v) !== zodSays(schema, v));
    expect(disagreements).toEqual([]);
  });

  it('agrees with zod on a seeded mutation sweep of the fixtures (delete, replace, wrap, add keys)', () => {
    const rand = prng(0xa2a);
    let cases = 0;
    let rejected = 0;
    const disagreements: string[] = [];
    for (const [name, schema] of schemas) {
      const check = compileCheck(schema);
      // Mutate values the schema accepts (the interesting edge), and a sample of the others.
      const bases = values.filter((v) => zodSays(schema, v) || rand() < 0.02);
      for (const base of bases) {
        for (let i = 0; i < 12; i++) {
          const [m, what] = mutate(base, rand);
          const expected = zodSays(schema, m);
          cases++;
          if (!expected) rejected++;
          if (check(m) !== expected) disagreements.push(`${name}: ${what} (zod: ${expected})`);
        }
      }
    }
    expect(disagreements).toEqual([]);
    expect(cases).toBeGreaterThan(5000);
    // The sweep exercises both answers.
    expect(rejected).toBeGreaterThan(cases / 10);
    expect(cases - rejected).toBeGreaterThan(cases / 10);
  });
});

describe('compileCheck mirrors zod 4 object semantics', () => {
  const agree = (schema: z.ZodType, inputs: readonly unknown[]) => {
    const check = compileCheck(schema);
    for (const v of inputs) expect([v, check(v)]).toEqual([v, zodSays(schema, v)]);
  };

  const shape = { id: z.string(), note: z.string().optional(), any: z.unknown(), n: z.number().optional() };
  const inputs: unknown[] = [
    { id: 'a', any: 1 },
    { id: 'a' }, // a required z.unknown() key must be present
    { id: 'a', any: undefined }, // present with undefined: accepted
    { id: 'a', any: 1, note: undefined }, // optional key present with undefined: accepted
    { id: 'a', any: 1, note: null },
    { id: 'a', any: 1, n: Number.NaN },
    { id: 'a', any: 1, n: Number.POSITIVE_INFINITY },
    { id: 'a', any: 1, n: -0 },
    { id: 'a', any: 1, extra: true },
    JSON.parse('{"id":"a","any":1,"__proto__":{"x":1}}'),
    Object.assign(Object.create(null) as object, { id: 'a', any: 1 }),
    // Other prototypes are read key by key, as zod reads them; an enumerable inherited key is a key.
    Object.assign(Object.create({ inherited: 1 }) as object, { id: 'a', any: 1 }),
    Object.assign(Object.create({ inherited: 1 }) as object, { id: 'a' }),
    Object.assign(Object.create({ any: 1 }) as object, { id: 'a' }),
    null,
    undefined,
    [],
    ['a'],
    'a',
    () => 1,
    new Date(0),
  ];

  it('strip (plain) objects accept unknown keys', () => agree(z.object(shape), inputs));
  it('loose objects accept unknown keys', () => agree(z.looseObject(shape), inputs));
  it('strict objects reject unknown keys, __proto__ included', () => agree(z.strictObject(shape), inputs));
  it('a catchall checks every other key', () => agree(z.object(shape).catchall(z.string()), [...inputs, { id: 'a', any: 1, x: 's' }]));

  it('reads declared keys the way zod does: through getters and prototypes', () => {
    class Wire {
      get id(): string {
        return 'from-prototype';
      }
    }
    const proto = { note: 5 };
    agree(z.object({ id: z.string(), note: z.string().optional() }), [new Wire(), Object.create(proto) as object, Object.create({ id: 'x' }) as object]);
    // A declared key Object.prototype holds (a function): zod reads it, and so does the checker.
    agree(z.object({ toString: z.string().optional() }), [{}, { toString: 'x' }]);
  });

  it('a declared __proto__ key is never checked, and is no unknown key', () => {
    const proto = { ['__proto__']: z.string(), id: z.string() };
    const inputs = [{ id: 'a' }, JSON.parse('{"id":"a","__proto__":1}'), {}];
    agree(z.object(proto), inputs);
    agree(z.strictObject(proto), inputs);
  });

  it('numbers are finite, at any depth', () => {
    agree(z.number(), [1, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '1', undefined]);
    agree(z.number().optional(), [1, Number.NaN, undefined, null]);
    agree(z.array(z.number()), [[1], [Number.NaN], [Number.NEGATIVE_INFINITY]]);
  });

  it('enums, literals, nullable, unions and records', () => {
    agree(z.enum(['A', 'B']), ['A', 'C', undefined, null, 1]);
    agree(z.literal('2.0'), ['2.0', '2', 2, undefined]);
    agree(z.object({ k: z.literal(undefined) }), [{}, { k: undefined }]);
    agree(z.string().nullable(), [null, 'a', undefined, 1]);
    agree(z.union([z.string(), z.number(), z.null()]).optional(), ['a', 1, null, undefined, Number.NaN, true, {}]);
    const sym = Symbol('s');
    const record = z.record(z.string(), z.unknown());
    agree(record, [{}, { a: 1 }, { [sym]: 1 }, [], null, Object.create(null) as object, new Map(), new (class Thing {})()]);
    agree(z.looseRecord(z.string(), z.number()), [{ [sym]: 'x' }, { a: 1 }, { a: 'x' }]);
  });
});

describe('refinements run with zod semantics', () => {
  it('run only when the object itself passed, in order, on the input', () => {
    const calls: string[] = [];
    const schema = inputRefined(
      z
        .object({ a: z.string().optional(), b: z.string().optional() })
        .refine((o) => (calls.push('one'), o.a !== undefined || o.b !== undefined))
        .refine((o) => (calls.push('two'), o.a !== 'bad')),
    );
    const check = compileCheck(schema);
    for (const v of [{ a: 1 }, {}, { a: 'bad' }, { b: 'ok' }]) {
      calls.length = 0;
      const fast = check(v);
      const fastCalls = [...calls];
      calls.length = 0;
      expect([fast, fastCalls]).toEqual([zodSays(schema, v), [...calls]]);
    }
  });

  it('abort: true stops later refinements, as in zod', () => {
    const second = vi.fn(() => true);
    const schema = inputRefined(z.object({}).refine(() => false, { abort: true }).refine(second));
    expect(compileCheck(schema)({})).toBe(false);
    expect(second).not.toHaveBeenCalled();
    expect(zodSays(schema, {})).toBe(false);
  });

  it('a union whose option refines is zod’s: a throw is not hidden by a later option', () => {
    // zod runs A's refinement despite the unknown key (that issue does not abort) and it throws.
    const A = inputRefined(
      z.strictObject({ a: z.string() }).refine(() => {
        throw new Error('boom');
      }),
    );
    const schema = z.union([A, z.object({})]);
    expect(() => schema.safeParse({ a: 'x', extra: 1 })).toThrow('boom');
    expect(() => compileCheck(schema)({ a: 'x', extra: 1 })).toThrow('boom');
  });

  it('an async refinement throws zod’s async error', () => {
    const schema = inputRefined(z.object({}).refine(async () => true));
    expect(() => schema.safeParse({})).toThrow(z.core.$ZodAsyncError);
    expect(() => compileCheck(schema)({})).toThrow(z.core.$ZodAsyncError);
  });
});

describe('anything not modelled is answered by zod, never approximated', () => {
  const cases: Array<[string, z.ZodType, unknown[]]> = [
    ['a string with .min(3)', z.object({ id: z.string().min(3) }), [{ id: 'ab' }, { id: 'abc' }]],
    ['an array with .min(1)', z.array(z.string()).min(1), [[], ['a'], [1]]],
    ['a transform', z.object({ n: z.string().transform(Number) }), [{ n: '1' }, { n: 1 }]],
    ['a default', z.object({ n: z.string().default('x') }), [{}, { n: undefined }, { n: 1 }]],
    ['a catch', z.object({ n: z.string().catch('') }), [{}, { n: 1 }]],
    ['a string format', z.object({ e: z.email() }), [{ e: 'a@b.co' }, { e: 'nope' }]],
    ['an integer', z.int(), [1, 1.5, Number.NaN]],
    ['coercion', z.coerce.number(), ['1', 'x']],
    ['exactOptional', z.object({ a: z.string().exactOptional() }), [{}, { a: undefined }, { a: 'x' }]],
    ['a discriminated union', z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b'), n: z.number() })]), [{ k: 'a' }, { k: 'b' }, { k: 'c' }]],
    ['xor', z.xor([z.string(), z.string().min(1)]), ['', 'a']],
    ['an unmarked refinement', z.object({ a: z.string().optional() }).refine((o) => Object.keys(o).length === 1), [{ a: 'x' }, { a: 'x', b: 1 }, {}]],
    ['a refinement with `when`', inputRefined(z.object({ a: z.string() }).refine(() => false, { when: () => false })), [{ a: 'x' }, { a: 1 }]],
    ['superRefine', z.object({ a: z.string() }).superRefine((o, ctx) => (o.a === 'x' ? ctx.addIssue('no') : undefined)), [{ a: 'x' }, { a: 'y' }]],
    ['a marked refinement over a transformed key', inputRefined(z.object({ a: z.string().transform(() => undefined) }).refine((o) => o.a !== undefined)), [{ a: 'x' }]],
  ];

  it.each(cases)('%s', (_name, schema, inputs) => {
    const check = compileCheck(schema);
    for (const v of inputs) expect([v, check(v)]).toEqual([v, zodSays(schema, v)]);
  });

  it('an optional over a default is zod’s: the default runs for undefined (and may throw)', () => {
    const schema = z.object({
      n: z
        .string()
        .default(() => {
          throw new Error('no default');
        })
        .optional(),
    });
    expect(() => schema.safeParse({})).toThrow('no default');
    expect(() => compileCheck(schema)({})).toThrow('no default');
  });

  it('a fallback node is zod itself (its safeParse runs), inside a compiled parent', () => {
    const id = z.string().min(3);
    const spy = vi.spyOn(id, 'safeParse');
    const check = compileCheck(z.object({ id, note: z.string().optional() }));
    expect(check({ id: 'abcd' })).toBe(true);
    expect(check({ id: 'ab' })).toBe(false);
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it('a recursive schema is zod’s', () => {
    const Node: z.ZodType = z.object({ name: z.string(), get children() {
      return z.array(Node).optional();
    } });
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.children = [cyclic];
    for (const v of [{ name: 'a' }, { name: 'a', children: [{ name: 1 }] }, cyclic]) expect(compileCheck(Node)(v)).toBe(zodSays(Node, v));
  });
});

describe('checkWire with the compiled checker', () => {
  it('returns the input itself when it passes, and zod’s error when not', () => {
    const frame = { artifactUpdate: { taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [{ text: 'x' }] }, append: true } };
    expect(checkWire(v1.V1StreamResponseSchema, frame, 'result')).toBe(frame);
    const bad = { artifactUpdate: { ...frame.artifactUpdate, artifact: { artifactId: 'a', parts: [{ text: 'x', raw: 'eA==' }] } } };
    const zodIssue = v1.V1StreamResponseSchema.safeParse(bad).error?.issues[0];
    expect(() => checkWire(v1.V1StreamResponseSchema, bad, 'result')).toThrow(
      expect.objectContaining({ kind: 'invalid-response', field: `result.${zodIssue?.path.join('.')}`, message: `Invalid response: result.${zodIssue?.path.join('.')}: ${zodIssue?.message}` }),
    );
  });
});
