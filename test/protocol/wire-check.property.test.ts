import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isA2AClientError } from '../../src/errors/a2a-client-error.js';
import { readEnvelope, RpcEnvelopeSchema } from '../../src/protocol/response-errors.js';
import * as v03 from '../../src/protocol/v03/wire-types.js';
import * as v1 from '../../src/protocol/v1/wire-types.js';
import { checkWire } from '../../src/protocol/validate.js';
import { WireType } from '../../src/protocol/wire-check.js';
import { sseFrames } from './fixtures.js';
import { mutated, weirdJson, type Json } from './malformed.js';

/** Every wire type the versions export, by name. */
const wireTypes = Object.entries({ v1, v03 }).flatMap(([version, exports]) =>
  Object.entries(exports).flatMap(([name, t]) => (t instanceof WireType ? [[`${version}.${name}`, t] as const] : [])),
);

/** Every object inside every captured official-server exchange (bodies and SSE frames): real payloads of both versions. */
function fixtureObjects(): Json[] {
  const dir = fileURLToPath(new URL('../interop/fixtures/', import.meta.url));
  const seen = new Map<string, Json>();
  const collect = (v: unknown): void => {
    if (typeof v !== 'object' || v === null) return;
    if (!Array.isArray(v)) seen.set(JSON.stringify(v), v as Json);
    for (const child of Object.values(v)) collect(child);
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const fx = JSON.parse(readFileSync(dir + file, 'utf8')) as { response: { raw?: string } };
    collect(fx);
    if (fx.response.raw !== undefined) collect(sseFrames(fx.response.raw));
  }
  return [...seen.values()];
}

const objects = fixtureObjects();
/** A real payload, or one with a node replaced, removed or wrapped anywhere inside it, or any JSON at all. */
const payload: fc.Arbitrary<Json> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...objects) },
  { weight: 6, arbitrary: fc.constantFrom(...objects).chain((base) => mutated(base)) },
  { weight: 1, arbitrary: weirdJson },
);

describe('wire predicates answer exactly as their zod schemas', () => {
  it('covers every hot-path wire type, each accepting some real payloads and rejecting others', () => {
    expect(wireTypes.map(([name]) => name).sort()).toEqual(
      ['v03.V03ArtifactUpdate', 'v03.V03Message', 'v03.V03StatusUpdate', 'v03.V03Task', 'v1.V1ArtifactUpdate', 'v1.V1Message', 'v1.V1SendMessageResponse', 'v1.V1StatusUpdate', 'v1.V1StreamResponse', 'v1.V1Task'],
    );
    for (const [name, type] of wireTypes) {
      const accepted = objects.filter((o) => type.schema.safeParse(o).success);
      expect(accepted.length, name).toBeGreaterThan(0);
      for (const o of accepted) expect(type.test(o), `${name} on ${JSON.stringify(o)}`).toBe(true);
    }
  });

  it.each(wireTypes)('%s: test(v) === schema.safeParse(v).success over random valid and invalid payloads', (_name, type) => {
    fc.assert(
      fc.property(payload, (value) => {
        expect(type.test(value)).toBe(type.schema.safeParse(value).success);
      }),
      { numRuns: 3_000 },
    );
  });

  it('checkWire gives back the payload itself when valid, and zod’s error naming the field when not', () => {
    fc.assert(
      fc.property(fc.constantFrom(...wireTypes), payload, ([, type], value) => {
        const parsed = type.schema.safeParse(value);
        let outcome: unknown;
        try {
          outcome = checkWire(type, value, 'result');
        } catch (error) {
          outcome = error;
        }
        if (parsed.success) expect(outcome).toBe(value);
        else {
          expect(isA2AClientError(outcome) && outcome.kind).toBe('invalid-response');
          const first = parsed.error.issues[0];
          expect(isA2AClientError(outcome) && outcome.field).toBe(['result', ...(first?.path ?? []).map(String)].join('.'));
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('a JSON-RPC result envelope is used as received exactly when zod accepts it', () => {
    const envelope = fc.oneof(
      fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)), result: weirdJson }),
      mutated({ jsonrpc: '2.0', id: 7, result: { ok: true } }),
      mutated({ jsonrpc: '2.0', id: 'a', error: { code: -32001, message: 'x' } }),
      weirdJson,
    );
    fc.assert(
      fc.property(envelope, (value) => {
        const parsed = RpcEnvelopeSchema.safeParse(value);
        let outcome: unknown;
        try {
          outcome = readEnvelope(value, 'getTask');
        } catch (error) {
          outcome = error;
        }
        if (!parsed.success) expect(isA2AClientError(outcome) && outcome.kind).toBe('invalid-response');
        else if (parsed.data.error === undefined) expect(outcome).toBe(value);
        else expect(outcome).toEqual(parsed.data);
      }),
      { numRuns: 3_000 },
    );
  });
});
