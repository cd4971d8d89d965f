/**
 * The result encoders (model → v1.0 ProtoJSON, model → v0.3 JSON-RPC) that the `a2a-js` transports
 * use for events without a wire form of their own: decoding what they write gives back the same model
 * (property), and the official SDK decodes the v1.0 encoding exactly as it decodes the agent's own.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { StreamResponse } from '@a2a-js/sdk';
import { decodeV1StreamEvent } from '../../src/protocol/v1/codec.js';
import { decodeV03Event } from '../../src/protocol/v03/codec.js';
import { eventToV1, V1_STREAM_MEMBER } from '../../src/protocol/v1/encode-results.js';
import { eventToV03 } from '../../src/protocol/v03/encode-results.js';
import type { StreamEvent } from '../../src/protocol/model.js';
import { v1StreamResponseArb } from '../helpers/v1-arbitraries.js';

/** The model without the wire objects it was read from (`raw`, at any depth). */
function withoutRaw(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRaw);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'raw').map(([k, v]) => [k, withoutRaw(v)]));
}

/** The model as v0.3 can carry it: v0.3 text and data parts have no media type. */
function v03View(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(v03View);
  if (typeof value !== 'object' || value === null) return value;
  const plain = 'kind' in value && (value.kind === 'text' || value.kind === 'data');
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'raw' && !(plain && k === 'mediaType')).map(([k, v]) => [k, v03View(v)]));
}

const wrap = (e: StreamEvent): Record<string, unknown> => ({ [V1_STREAM_MEMBER[e.kind]]: eventToV1(e) });

describe('result encoders', () => {
  it('v1.0: decode(encode(model)) is the model, and the official SDK reads the encoding as it reads the original', () => {
    fc.assert(
      fc.property(v1StreamResponseArb, (wire) => {
        const model = decodeV1StreamEvent(wire);
        const again = decodeV1StreamEvent(wrap(model));
        expect(withoutRaw(again)).toEqual(withoutRaw(model));
        expect(StreamResponse.fromJSON(wrap(model))).toEqual(StreamResponse.fromJSON(wire));
      }),
      { numRuns: 300 },
    );
  });

  it('v0.3: decode(encode(model)) is the model, `final` set for terminal and interrupted states', () => {
    fc.assert(
      fc.property(v1StreamResponseArb, (wire) => {
        const model = decodeV1StreamEvent(wire);
        const encoded = eventToV03(model);
        const again = decodeV03Event(encoded);
        const expected = model.kind === 'status-update' ? { ...model, final: ['completed', 'failed', 'canceled', 'rejected', 'input-required', 'auth-required'].includes(model.status.state) } : model;
        expect(v03View(again)).toEqual(v03View(expected));
      }),
      { numRuns: 300 },
    );
  });
});
