import { describe, expect, it } from 'vitest';
import type { EventConverter } from '../../src/convert/converter.js';
import { safeConvert } from '../../src/convert/safe-convert.js';

describe('safeConvert', () => {
  it('turns a converter that throws a non-Error into one terminal converter_error event naming it', () => {
    const bad: EventConverter = {
      name: 'weird',
      convert: () => {
        throw 'a string';
      },
      convertStream: () => [],
    };
    const card = { name: 'a', interfaces: [], capabilities: {}, skills: [], raw: {} };
    const message = { kind: 'message' as const, messageId: 'm', role: 'agent' as const, parts: [] };
    const events = safeConvert(bad, { agent: 'a' }, (c) => c.convert(message, { agent: 'a', card, state: {} }));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ object: 'error', done: true, error: { type: 'converter_error', message: 'converter "weird" failed: a string' } });
  });
});
