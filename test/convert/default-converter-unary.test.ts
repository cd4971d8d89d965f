import { describe, expect, it } from 'vitest';
import { isTerminalError } from '../../src/convert/agent-event.js';
import { defaultConverter } from '../../src/convert/default-converter.js';
import type { Artifact } from '../../src/protocol/model.js';
import { newCtx, ORIGINS } from './origins.js';

const ERR_META = {
  object_type: 'error',
  error_type: 'flow_error',
  error_code: 'REMOTE_VALIDATION_FAILED',
  error_message: 'validation failed',
  task_state: 'failed',
  llm_response_id: 'resp-1',
};
const ARTIFACTS: Artifact[] = [{ artifactId: 'a1', parts: [{ kind: 'text', text: 'partial answer' }] }];

describe.each(ORIGINS)('defaultConverter.convert (v$name origin)', (origin) => {
  it('failed task with outer metadata → exactly one terminal error event, code kept, artifacts skipped', () => {
    const task = origin.task('failed', { outer: ERR_META, text: 'validation failed (display)', artifacts: ARTIFACTS });
    const events = defaultConverter.convert(task, newCtx());
    expect(events).toHaveLength(1);
    const [ev] = events;
    expect(ev).toMatchObject({
      object: 'error',
      done: true,
      state: 'failed',
      taskId: 'task-1',
      contextId: 'ctx-1',
      id: 'resp-1',
      agent: 'test-agent',
      error: { type: 'flow_error', code: 'REMOTE_VALIDATION_FAILED', message: 'validation failed' },
    });
    expect(ev?.text).toBeUndefined();
    expect(ev?.parts).toBeUndefined();
    expect(ev?.raw).toBe(task);
    expect(isTerminalError(ev!)).toBe(true);
  });

  it('keeps a numeric error_code as a decimal string', () => {
    const [ev] = defaultConverter.convert(origin.task('failed', { outer: { error_code: 40401 } }), newCtx());
    expect(ev?.error?.code).toBe('40401');
    expect(ev?.error?.message).toBe('task failed');
  });

  it.each([
    ['rejected', 'task rejected by the agent'],
    ['canceled', 'task canceled'],
    ['failed', 'task failed'],
  ] as const)('%s task without text → one error event with the fallback message', (state, fallback) => {
    const events = defaultConverter.convert(origin.task(state, { outer: { object_type: 'error', error_code: 'E1' }, artifacts: ARTIFACTS }), newCtx());
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ object: 'error', done: true, state, error: { type: 'flow_error', code: 'E1', message: fallback } });
  });

  it.each(['rejected', 'canceled'] as const)('%s task with no metadata and no text → fallback, no code', (state) => {
    const [ev] = defaultConverter.convert(origin.task(state), newCtx());
    expect(ev?.error).toEqual({ type: 'flow_error', message: state === 'rejected' ? 'task rejected by the agent' : 'task canceled', source: 'agent', retryable: false, ambiguous: false });
  });

  it('mirror-only metadata (status.message.metadata) rebuilds the error', () => {
    const [ev] = defaultConverter.convert(origin.task('failed', { mirror: ERR_META, text: 'shown to users' }), newCtx());
    expect(ev?.error).toEqual({ type: 'flow_error', code: 'REMOTE_VALIDATION_FAILED', message: 'validation failed', source: 'agent', retryable: false, ambiguous: false });
    expect(ev?.id).toBe('resp-1');
  });

  it('both present → merged key by key, outer wins', () => {
    const task = origin.task('failed', {
      outer: { error_code: 'OUTER_CODE', error_type: 'business_error' },
      mirror: { error_code: 'MIRROR_CODE', error_message: 'mirror message', error_param: 'sku' },
    });
    const [ev] = defaultConverter.convert(task, newCtx());
    expect(ev?.error).toEqual({ type: 'business_error', code: 'OUTER_CODE', message: 'mirror message', param: 'sku', source: 'agent', retryable: false, ambiguous: false });
  });

  it('neither → the status text is the message, type flow_error, no code', () => {
    const events = defaultConverter.convert(origin.task('failed', { text: 'the tool crashed', messageId: 'm-9' }), newCtx());
    expect(events).toHaveLength(1);
    expect(events[0]?.error).toEqual({ type: 'flow_error', message: 'the tool crashed', source: 'agent', retryable: false, ambiguous: false });
    expect(events[0]?.id).toBe('m-9');
  });

  it('completed task → chat.completion with the artifacts text, done', () => {
    const task = origin.task('completed', { artifacts: [...ARTIFACTS, { artifactId: 'a2', parts: [{ kind: 'text', text: 'more' }] }] });
    const events = defaultConverter.convert(task, newCtx());
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ object: 'chat.completion', done: true, partial: false, text: 'partial answer\nmore', state: 'completed', taskId: 'task-1' });
    expect(events[0]?.error).toBeUndefined();
  });

  it('completed task without artifacts → the status message text; llm_response_id → id', () => {
    const [ev] = defaultConverter.convert(origin.task('completed', { text: 'hello', outer: { llm_response_id: 'llm-7' } }), newCtx());
    expect(ev).toMatchObject({ object: 'chat.completion', text: 'hello', id: 'llm-7', done: true });
  });

  it('Message → chat.completion', () => {
    const events = defaultConverter.convert(origin.message('hi there'), newCtx());
    expect(events).toEqual([expect.objectContaining({ object: 'chat.completion', done: true, text: 'hi there', id: 'msg-1', contextId: 'ctx-1' })]);
  });

  it('Message with only error_code → terminal error rebuilt, message from its text', () => {
    const [ev] = defaultConverter.convert(origin.message('quota exceeded for today', { error_code: 42901 }), newCtx());
    expect(ev).toMatchObject({ object: 'error', done: true, error: { type: 'flow_error', code: '42901', message: 'quota exceeded for today' } });
    expect(isTerminalError(ev!)).toBe(true);
  });

  it.each(['input-required', 'auth-required'] as const)('%s without error metadata → one done event with the state, no error', (state) => {
    const events = defaultConverter.convert(origin.task(state, { text: 'which city?' }), newCtx());
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ object: 'task.status', done: true, state, text: 'which city?' });
    expect(events[0]?.error).toBeUndefined();
    expect(isTerminalError(events[0]!)).toBe(false);
  });

  it('input-required with structured error → recoverable error event (not terminal), then the done event', () => {
    const events = defaultConverter.convert(
      origin.task('input-required', { outer: { error_code: 'NEED_ADDRESS', error_message: 'address missing' }, text: 'please give an address' }),
      newCtx(),
    );
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ object: 'task.status', done: false, state: 'input-required', error: { code: 'NEED_ADDRESS', message: 'address missing' } });
    expect(events.every((e) => !isTerminalError(e))).toBe(true);
    expect(events[1]).toMatchObject({ done: true, state: 'input-required', text: 'please give an address' });
    expect(events[1]?.error).toBeUndefined();
  });

  it('a working task (non-blocking send) → one done task.status event', () => {
    const events = defaultConverter.convert(origin.task('working'), newCtx());
    expect(events).toEqual([expect.objectContaining({ object: 'task.status', done: true, state: 'working' })]);
  });

  it('a completed task whose artifact carries error metadata → terminal error', () => {
    const task = origin.task('completed', { artifacts: [{ artifactId: 'bad', parts: [{ kind: 'text', text: 'oops' }], metadata: { error_code: 'X' } }] });
    const [ev] = defaultConverter.convert(task, newCtx());
    expect(ev).toMatchObject({ object: 'error', done: true, error: { code: 'X', message: 'oops' } });
  });
});
