import { describe, expect, it } from 'vitest';
import {
  hasStructuredError,
  mergeErrorMetadata,
  readErrorMetadata,
  responseErrorFromMetadata,
} from '../../src/convert/response-error-from-metadata.js';

describe('responseErrorFromMetadata', () => {
  it('returns undefined when no structured error is present', () => {
    expect(responseErrorFromMetadata(undefined, 'x', 'flow_error')).toBeUndefined();
    expect(responseErrorFromMetadata({ task_state: 'failed', llm_response_id: 'r' }, 'x', 'flow_error')).toBeUndefined();
    expect(responseErrorFromMetadata({ object_type: 'chat.completion' }, 'x', 'flow_error')).toBeUndefined();
  });

  it('object_type error alone is a structured error with defaults', () => {
    expect(responseErrorFromMetadata({ object_type: 'error' }, 'fallback text', 'flow_error')).toEqual({
      type: 'flow_error',
      source: 'agent',
      message: 'fallback text',
      retryable: false,
      ambiguous: false,
    });
  });

  it.each([
    ['error_type', 'type'],
    ['error_code', 'code'],
    ['error_message', 'message'],
    ['error_param', 'param'],
  ] as const)('%s alone marks an error, and is read as its %s', (key, field) => {
    expect(responseErrorFromMetadata({ [key]: 'v' }, 'fb', 'flow_error')?.[field]).toBe('v');
  });

  it('reads every field, outer names to ResponseError names', () => {
    const err = responseErrorFromMetadata(
      { object_type: 'error', error_type: 'validation_error', error_code: 'ORDER_X', error_message: 'bad order', error_param: 'qty' },
      'fb',
      'flow_error',
    );
    expect(err).toEqual({ type: 'validation_error', code: 'ORDER_X', message: 'bad order', param: 'qty', source: 'agent', retryable: false, ambiguous: false });
  });

  it('turns numeric codes into decimal strings', () => {
    expect(responseErrorFromMetadata({ error_code: 40401 }, 'fb', 'flow_error')?.code).toBe('40401');
    expect(responseErrorFromMetadata({ error_code: -32603 }, 'fb', 'flow_error')?.code).toBe('-32603');
  });

  it('ignores non-string non-number values without throwing', () => {
    const meta = { object_type: 'error', error_code: { nested: 1 }, error_message: ['a'], error_type: true, error_param: null };
    expect(responseErrorFromMetadata(meta, 'fb', 'flow_error')).toEqual({ type: 'flow_error', message: 'fb', source: 'agent', retryable: false, ambiguous: false });
    expect(responseErrorFromMetadata({ error_code: Number.NaN }, 'fb', 'flow_error')).toBeUndefined();
  });

  it('reads task_state (known states only) and llm_response_id', () => {
    expect(readErrorMetadata({ task_state: 'failed', llm_response_id: 'resp-1' })).toEqual({ taskState: 'failed', llmResponseId: 'resp-1' });
    expect(readErrorMetadata({ task_state: 'exploded' }).taskState).toBeUndefined();
    expect(hasStructuredError(readErrorMetadata({ task_state: 'failed' }))).toBe(false);
  });
});

describe('mergeErrorMetadata', () => {
  it('merges key by key, the outer value wins', () => {
    const merged = mergeErrorMetadata(
      { error_code: 'OUTER', error_message: undefined, extra: 1 },
      { error_code: 'MIRROR', error_message: 'from mirror', error_type: 'flow_error' },
    );
    expect(merged).toEqual({ error_code: 'OUTER', error_message: 'from mirror', error_type: 'flow_error', extra: 1 });
  });

  it('returns undefined when both are absent and copies either alone', () => {
    expect(mergeErrorMetadata(undefined, undefined)).toBeUndefined();
    expect(mergeErrorMetadata(undefined, { a: 1 })).toEqual({ a: 1 });
    expect(mergeErrorMetadata({ a: 1 }, undefined)).toEqual({ a: 1 });
  });
});
