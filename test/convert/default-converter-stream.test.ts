import { describe, expect, it } from 'vitest';
import { isTerminalError, type AgentEvent } from '../../src/convert/agent-event.js';
import type { ConverterContext } from '../../src/convert/converter.js';
import { defaultConverter } from '../../src/convert/default-converter.js';
import type { StreamEvent } from '../../src/protocol/model.js';
import { newCtx, ORIGINS } from './origins.js';

/** Feeds items then `end`, as the client does, stopping after a done event. */
function run(items: StreamEvent[], ctx: ConverterContext = newCtx()): AgentEvent[] {
  const out: AgentEvent[] = [];
  for (const item of items) out.push(...defaultConverter.convertStream(item, ctx));
  out.push(...(defaultConverter.end?.(ctx) ?? []));
  return out;
}

const FAIL_META = { object_type: 'error', error_type: 'flow_error', error_code: 'REMOTE_VALIDATION_FAILED', error_message: 'validation failed', task_state: 'failed', llm_response_id: 'resp-1' };

describe.each(ORIGINS)('defaultConverter.convertStream (v$name origin)', (origin) => {
  it('artifact text → chunks, completed → final chat.completion with the whole text', () => {
    const events = run([origin.task('submitted'), origin.artifact('Hello, ', { id: 'a1' }), origin.artifact('world', { id: 'a1' }), origin.status('completed')]);
    expect(events.map((e) => e.object)).toEqual(['chat.completion.chunk', 'chat.completion.chunk', 'chat.completion']);
    expect(events[0]).toMatchObject({ partial: true, done: false, text: 'Hello, ', id: 'a1', taskId: 'task-1' });
    expect(events[2]).toMatchObject({ done: true, partial: false, text: 'Hello, world', state: 'completed' });
  });

  it('a long stream: every chunk once, and the final chat.completion carries the whole text in order', () => {
    const pieces = Array.from({ length: 1_000 }, (_, i) => `${i},`);
    const events = run([origin.task('submitted'), ...pieces.map((p) => origin.artifact(p, { id: 'a1' })), origin.status('completed')]);
    expect(events).toHaveLength(1_001);
    expect(events.slice(0, -1).map((e) => e.text).join('')).toBe(pieces.join(''));
    expect(events.at(-1)).toMatchObject({ object: 'chat.completion', text: pieces.join('') });
  });

  it('working status with text → chunk', () => {
    const events = run([origin.status('working', { text: 'thinking…', messageId: 'st-1' }), origin.status('completed', { text: 'done' })]);
    expect(events[0]).toMatchObject({ object: 'chat.completion.chunk', text: 'thinking…', state: 'working', id: 'st-1', done: false });
    expect(events[1]).toMatchObject({ object: 'chat.completion', text: 'done', done: true });
  });

  it('failure after text chunks: chunks first, one terminal error, nothing after', () => {
    const ctx = newCtx();
    const events = run(
      [
        origin.task('working'),
        origin.artifact('part one '),
        origin.artifact('part two'),
        origin.status('failed', { outer: FAIL_META, mirror: FAIL_META, text: 'validation failed' }),
        origin.artifact('late text'),
        origin.status('completed', { text: 'should not appear' }),
      ],
      ctx,
    );
    expect(events.map((e) => e.object)).toEqual(['chat.completion.chunk', 'chat.completion.chunk', 'error']);
    const last = events[2]!;
    expect(last).toMatchObject({ done: true, state: 'failed', id: 'resp-1', error: { code: 'REMOTE_VALIDATION_FAILED', type: 'flow_error', message: 'validation failed' } });
    expect(isTerminalError(last)).toBe(true);
    expect(events.some((e) => e.object === 'chat.completion')).toBe(false);
  });

  it('buffered text from a task snapshot is flushed before the terminal error', () => {
    const snapshot = origin.task('working', { artifacts: [{ artifactId: 'a0', parts: [{ kind: 'text', text: 'so far' }] }] });
    const events = run([snapshot, origin.status('rejected', { outer: { object_type: 'error' } })]);
    expect(events.map((e) => e.object)).toEqual(['chat.completion.chunk', 'error']);
    expect(events[0]?.text).toBe('so far');
    expect(events[1]?.error).toEqual({ type: 'flow_error', message: 'task rejected by the agent', source: 'agent', retryable: false, ambiguous: false });
  });

  it('a final artifact carrying error metadata is terminal', () => {
    const events = run([
      origin.artifact('answer start'),
      origin.artifact('generation aborted', { id: 'a9', lastChunk: true, metadata: { object_type: 'error', error_code: 50001, llm_response_id: 'llm-x' } }),
      origin.status('completed'),
    ]);
    expect(events.map((e) => e.object)).toEqual(['chat.completion.chunk', 'error']);
    expect(events[1]).toMatchObject({ done: true, id: 'llm-x', state: 'failed', error: { code: '50001', message: 'generation aborted' } });
  });

  it('structured error on a working update → recoverable event, the stream goes on', () => {
    const events = run([
      origin.status('working', { outer: { error_code: 'SOFT_TIMEOUT', error_message: 'inventory slow' } }),
      origin.artifact('fallback answer'),
      origin.status('completed'),
    ]);
    expect(events.map((e) => e.object)).toEqual(['task.status', 'chat.completion.chunk', 'chat.completion']);
    expect(events[0]).toMatchObject({ done: false, state: 'working', error: { code: 'SOFT_TIMEOUT', message: 'inventory slow' } });
    expect(isTerminalError(events[0]!)).toBe(false);
    expect(events[2]).toMatchObject({ done: true, text: 'fallback answer' });
  });

  it('structured error in input-required → recoverable event, then the interrupted done event; no stream_incomplete', () => {
    const events = run([origin.status('input-required', { mirror: { error_code: 'NEED_INPUT' }, text: 'which size?' })]);
    expect(events.map((e) => [e.object, e.done])).toEqual([
      ['task.status', false],
      ['task.status', true],
    ]);
    expect(events[0]?.error).toEqual({ type: 'flow_error', code: 'NEED_INPUT', message: 'which size?', source: 'agent', retryable: false, ambiguous: false });
    expect(events.every((e) => !isTerminalError(e))).toBe(true);
    expect(events[1]).toMatchObject({ state: 'input-required', text: 'which size?' });
  });

  it('a Message item ends the stream as the answer; a Message with only error_code is a terminal error', () => {
    expect(run([origin.message('direct reply')])).toEqual([expect.objectContaining({ object: 'chat.completion', text: 'direct reply', done: true })]);
    const [ev, ...rest] = run([origin.message('denied', { error_code: 403 }), origin.message('after')]);
    expect(rest).toEqual([]);
    expect(ev).toMatchObject({ object: 'error', done: true, error: { code: '403', message: 'denied' } });
  });

  it('a stream ending before a terminal state → end() emits one stream_incomplete protocol_error', () => {
    const events = run([origin.task('working'), origin.artifact('half')]);
    expect(events.map((e) => e.object)).toEqual(['chat.completion.chunk', 'error']);
    expect(events[1]).toMatchObject({ done: true, taskId: 'task-1', error: { type: 'protocol_error', code: 'stream_incomplete' } });
    expect(events[1]?.error?.message).toContain('working');
    expect(isTerminalError(events[1]!)).toBe(true);
  });

  it('an empty stream is incomplete too; end() after a terminal event adds nothing', () => {
    expect(run([])).toEqual([expect.objectContaining({ object: 'error', error: expect.objectContaining({ code: 'stream_incomplete' }) })]);
    const ctx = newCtx();
    defaultConverter.convertStream(origin.status('completed', { text: 'ok' }), ctx);
    expect(defaultConverter.end?.(ctx)).toEqual([]);
  });

  it('llm_response_id on a status update becomes the event id, else the message id', () => {
    const events = run([
      origin.status('working', { outer: { llm_response_id: 'llm-42' }, text: 'step', messageId: 'm1' }),
      origin.status('completed', { text: 'end', messageId: 'm2' }),
    ]);
    expect(events[0]?.id).toBe('llm-42');
    expect(events[1]?.id).toBe('m2');
  });

  it('a terminal Task item in the stream (e.g. failed snapshot) → one error event', () => {
    const events = run([origin.task('canceled', { artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'x' }] }] })]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ object: 'error', state: 'canceled', error: { message: 'task canceled' } });
  });

  it('each call has its own scratch state', () => {
    const a = newCtx();
    const b = newCtx();
    defaultConverter.convertStream(origin.status('failed'), a);
    expect(defaultConverter.convertStream(origin.artifact('still flowing'), b)).toHaveLength(1);
    expect(defaultConverter.convertStream(origin.artifact('ignored'), a)).toEqual([]);
  });
});
