import { describe, expect, expectTypeOf, it } from 'vitest';
import * as convert from '../../src/convert/index.js';
import type { AgentEvent, EventConverter } from '../../src/convert/index.js';

describe('src/convert public surface', () => {
  it('exports the contract names', () => {
    expect(typeof convert.ConverterRegistry).toBe('function');
    expect(convert.defaultConverter.name).toBe('default');
    expect(typeof convert.responseErrorFromMetadata).toBe('function');
    expect(typeof convert.isTerminalError).toBe('function');
    expect(typeof convert.errorEvent).toBe('function');
    expect(typeof convert.safeConvert).toBe('function');
    expect(typeof convert.resolveConverter).toBe('function');
  });

  it('the default converter has end() and every method returns events', () => {
    expectTypeOf(convert.defaultConverter).toMatchTypeOf<EventConverter>();
    expectTypeOf(convert.defaultConverter.convert).returns.toEqualTypeOf<AgentEvent[]>();
    expect(typeof convert.defaultConverter.end).toBe('function');
  });

  it('safeConvert turns a non-Error throw into a converter_error event too', () => {
    const bad: EventConverter = {
      name: 'weird',
      convert: () => {
        throw 'a string';
      },
      convertStream: () => [],
    };
    const card = { name: 'a', interfaces: [], capabilities: {}, skills: [], raw: {} };
    const message = { kind: 'message' as const, messageId: 'm', role: 'agent' as const, parts: [] };
    const [ev] = convert.safeConvert(bad, { agent: 'a' }, (c) => c.convert(message, { agent: 'a', card, state: {} }));
    expect(ev).toMatchObject({ object: 'error', done: true, error: { type: 'converter_error', message: 'converter "weird" failed: a string' } });
  });
});
