import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { checkWire, countDefined, parseWire } from '../../src/protocol/validate.js';

describe('checkWire', () => {
  const Schema = z.object({ id: z.string(), tags: z.array(z.string()).optional() });

  it('returns the input itself, unknown fields included, typed as the schema output', () => {
    const wire = { id: 'a', tags: ['t'], vendor: { x: 1 } };
    const out = checkWire(Schema, wire, 'result');
    expect(out).toBe(wire);
    expectTypeOf(out).toEqualTypeOf<{ id: string; tags?: string[] | undefined }>();
    // parseWire, by contrast, returns zod's (stripped) copy.
    expect(parseWire(Schema, wire, 'result')).toEqual({ id: 'a', tags: ['t'] });
  });

  it('throws invalid-response naming the first offending field', () => {
    expect(() => checkWire(Schema, { id: 1 }, 'result', 'GetTask')).toThrow(
      expect.objectContaining({ kind: 'invalid-response', field: 'result.id', method: 'GetTask' }),
    );
  });

  it('only accepts schemas that do not change values', () => {
    // @ts-expect-error a transform's output is not its input
    expect(() => checkWire(z.string().transform(Number), '1', 'result')).not.toThrow();
    // @ts-expect-error a default fills in a value the input lacks
    expect(() => checkWire(z.object({ a: z.string().default('x') }), {}, 'result')).not.toThrow();
  });
});

describe('countDefined', () => {
  it('counts defined arguments (null counts)', () => {
    expect(countDefined(undefined, undefined)).toBe(0);
    expect(countDefined('a', undefined, null, undefined)).toBe(2);
    expect(countDefined(0, '', false, {})).toBe(4);
  });
});
