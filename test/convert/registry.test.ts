import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/convert/agent-event.js';
import type { EventConverter } from '../../src/convert/converter.js';
import { defaultConverter } from '../../src/convert/default-converter.js';
import { ConverterRegistry, resolveConverter } from '../../src/convert/registry.js';
import { responseErrorFromMetadata } from '../../src/convert/response-error-from-metadata.js';
import { safeConvert } from '../../src/convert/safe-convert.js';
import { isA2AClientError } from '../../src/errors/a2a-client-error.js';
import type { AgentCard, Metadata } from '../../src/protocol/model.js';
import { CARD, newCtx, ORIGINS } from './origins.js';

const acmeCard: AgentCard = { ...CARD, name: 'acme-bot', provider: { organization: 'Acme' } };

/** A provider that names its fields errorCode / errorMessage: rename, then delegate to the default. */
function renameMetadata(metadata: Metadata | undefined): Metadata | undefined {
  if (!metadata) return metadata;
  const { errorCode, errorMessage, ...rest } = metadata;
  return { ...rest, ...(errorCode === undefined ? {} : { error_code: errorCode }), ...(errorMessage === undefined ? {} : { error_message: errorMessage }) };
}
const acmeConverter: EventConverter = {
  name: 'acme',
  convert: (result, ctx) =>
    defaultConverter.convert(
      result.kind === 'task'
        ? { ...result, metadata: renameMetadata(result.metadata) }
        : { ...result, metadata: renameMetadata(result.metadata) },
      ctx,
    ),
  convertStream: (item, ctx) =>
    defaultConverter.convertStream(item.kind === 'artifact-update' ? item : { ...item, metadata: renameMetadata(item.metadata) }, ctx),
  end: (ctx) => defaultConverter.end?.(ctx) ?? [],
};

const throwing: EventConverter = {
  name: 'broken',
  convert: () => {
    throw new Error('cannot read property x');
  },
  convertStream: () => {
    throw new TypeError('bad item');
  },
};

describe('ConverterRegistry', () => {
  it("has 'default' preregistered and get() by name", () => {
    const reg = new ConverterRegistry();
    expect(reg.get('default')).toBe(defaultConverter);
    expect(reg.get('nope')).toBeUndefined();
  });

  it('select(card) → the first converter whose match is true, else default', () => {
    const other: EventConverter = { ...acmeConverter, name: 'other' };
    const reg = new ConverterRegistry()
      .register(other, { match: (c) => c.name === 'someone-else' })
      .register(acmeConverter, { match: (c) => c.provider?.organization === 'Acme' })
      .register({ ...acmeConverter, name: 'acme-2' }, { match: () => true });
    expect(reg.select(acmeCard)).toBe(acmeConverter);
    expect(new ConverterRegistry().register(acmeConverter, { match: (c) => c.name === 'x' }).select(acmeCard)).toBe(defaultConverter);
  });

  it('a throwing match does not match', () => {
    const reg = new ConverterRegistry().register(acmeConverter, {
      match: () => {
        throw new Error('bad matcher');
      },
    });
    expect(reg.select(acmeCard)).toBe(defaultConverter);
  });

  it('resolveConverter: instance, name, matching, and an unknown name → A2AClientError unsupported', () => {
    const reg = new ConverterRegistry().register(acmeConverter, { match: (c) => c.name === 'acme-bot' });
    expect(resolveConverter(CARD, { converter: throwing })).toBe(throwing);
    expect(resolveConverter(CARD, { converter: 'acme', converters: reg })).toBe(acmeConverter);
    expect(resolveConverter(acmeCard, { converters: reg })).toBe(acmeConverter);
    expect(resolveConverter(acmeCard, {})).toBe(defaultConverter);
    try {
      resolveConverter(CARD, { converter: 'missing', converters: reg });
      expect.unreachable();
    } catch (error) {
      expect(isA2AClientError(error) && error.kind === 'unsupported' && error.field === 'converter').toBe(true);
    }
  });
});

describe.each(ORIGINS)('provider converters (v$name origin)', (origin) => {
  it('a wrapping converter renaming errorCode/errorMessage yields the same ResponseError as the default', () => {
    const viaDefault = defaultConverter.convert(origin.task('failed', { outer: { error_code: 'E42', error_message: 'nope' } }), newCtx());
    const viaAcme = acmeConverter.convert(origin.task('failed', { outer: { errorCode: 'E42', errorMessage: 'nope' } }), newCtx());
    expect(viaAcme[0]?.error).toEqual(viaDefault[0]?.error);
    expect(viaAcme[0]?.error).toEqual(responseErrorFromMetadata({ error_code: 'E42', error_message: 'nope' }, 'x', 'flow_error'));
    const streamed = acmeConverter.convertStream(origin.status('failed', { outer: { errorCode: 'E42', errorMessage: 'nope' } }), newCtx());
    expect(streamed[0]?.error).toEqual(viaDefault[0]?.error);
  });

  it('a throwing converter → one terminal converter_error event, no crash', () => {
    const ctx = newCtx();
    const unary: AgentEvent[] = safeConvert(throwing, ctx, (c) => c.convert(origin.task('completed'), ctx));
    expect(unary).toHaveLength(1);
    expect(unary[0]).toMatchObject({ object: 'error', done: true, agent: 'test-agent', error: { type: 'converter_error' } });
    expect(unary[0]?.error?.message).toContain('broken');
    expect(unary[0]?.error?.message).toContain('cannot read property x');
    const streamed = safeConvert(throwing, ctx, (c) => c.convertStream(origin.artifact('x'), ctx));
    expect(streamed[0]?.error?.type).toBe('converter_error');
  });
});
