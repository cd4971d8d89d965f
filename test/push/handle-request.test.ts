/**
 * Direct deliveries through `handleRequest(new Request(…))`: what a webhook must refuse (wrong
 * method, bad JSON, payloads that are not A2A, oversize bodies by Content-Length and by counting a
 * stream without one, an unknown task), custom auth functions, and the reconciliation of repeated
 * and reordered deliveries of both protocol versions.
 */
import { describe, expect, it } from 'vitest';
import { pushReceiver, type PushReceiverEvent } from '../../src/push/index.js';
import { chunks, delivery, take, v03, v1, v1Task } from './payloads.js';

const open = () => true;

describe('handleRequest refusals', () => {
  it('405 for a method other than POST, with Allow', async () => {
    const receiver = pushReceiver({ auth: open });
    const res = await receiver.handleRequest(new Request('http://127.0.0.1/push', { method: 'GET' }));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('400 for a body that is not JSON, or not UTF-8, or JSON that is no A2A payload (naming the field)', async () => {
    const events: PushReceiverEvent[] = [];
    const receiver = pushReceiver({ auth: open, onEvent: (e) => events.push(e) });
    const iteration = receiver.events('t1');
    expect((await receiver.handleRequest(delivery('{"task": '))).status).toBe(400);
    expect((await receiver.handleRequest(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: new Uint8Array([0x7b, 0xff, 0x7d]) }))).status).toBe(400);
    const invalid = await receiver.handleRequest(delivery({ statusUpdate: { taskId: 't1', contextId: 'c', status: { state: 42 } } }));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ field: expect.stringMatching(/^body\.statusUpdate\.status\.state/) });
    expect((await receiver.handleRequest(delivery([1, 2] as unknown as Record<string, unknown>))).status).toBe(400);
    expect(events.map((e) => e.type === 'refused' && e.status)).toEqual([400, 400, 400, 400]);
    await receiver.close();
    expect(await take(iteration)).toMatchObject([{ object: 'error', error: { type: 'aborted' } }]);
  });

  it('413 by Content-Length before reading, and by counting a streamed body without one', async () => {
    const receiver = pushReceiver({ auth: open, maxBodyBytes: 1024 });
    receiver.events('t1');
    const declared = await receiver.handleRequest(delivery({ pad: 'x'.repeat(2000) }));
    expect(declared.status).toBe(413);

    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(512).fill(0x20));
      },
    });
    const streamed = await receiver.handleRequest(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: endless, duplex: 'half' } as RequestInit));
    expect(streamed.status).toBe(413);
    // Cut off just past the cap: an endless body is never read to its end.
    expect(pulled).toBeLessThan(10);
    await receiver.close();
  });

  it('404 for a task no iteration is open for (custom auth); a payload naming no task is 400', async () => {
    const receiver = pushReceiver({ auth: open });
    expect((await receiver.handleRequest(delivery(v1.status('nobody', 'working')))).status).toBe(404);
    expect((await receiver.handleRequest(delivery({ message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'x' }] } }))).status).toBe(400);
  });

  it('a custom function sees headers only; false or a throw is 401 and nothing is delivered', async () => {
    const seen: Array<{ method: string; key: string | null; body: unknown }> = [];
    const receiver = pushReceiver({
      auth: (request) => {
        seen.push({ method: request.method, key: request.headers.get('x-key'), body: request.body });
        if (request.headers.get('x-key') === 'boom') throw new Error('secret-in-message');
        return request.headers.get('x-key') === 'right';
      },
    });
    const iteration = receiver.events('t1');
    for (const key of ['wrong', 'boom']) {
      const res = await receiver.handleRequest(delivery(v1.task('t1', 'completed', ['forged']), { 'x-key': key }));
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain('secret-in-message');
    }
    expect((await receiver.handleRequest(delivery(v1.task('t1', 'completed', ['genuine']), { 'x-key': 'right' }))).status).toBe(204);
    const events = await take(iteration);
    expect(events.at(-1)).toMatchObject({ object: 'chat.completion', done: true, text: 'genuine', state: 'completed' });
    expect(seen.map((s) => [s.method, s.key, s.body])).toEqual([['POST', 'wrong', null], ['POST', 'boom', null], ['POST', 'right', null]]);
  });
});

describe('reconciliation of deliveries', () => {
  it('v1.0 events: a repeated delivery is dropped, each chunk once, ends at completed', async () => {
    const receiver = pushReceiver({ auth: open });
    const iteration = receiver.events('t1', { agent: 'writer' });
    const sends = [v1.task('t1', 'submitted'), v1.status('t1', 'working', 1), v1.chunk('t1', 'Hello', false), v1.chunk('t1', ', world'), v1.chunk('t1', ', world'), v1.chunk('t1', '!'), v1.status('t1', 'completed', 2)];
    const replayed = [sends[0], sends[1], sends[2], sends[3], sends[3], sends[5], sends[5], sends[6], sends[6]];
    // `sends[4]` (the second ', world') is byte-identical to `sends[3]`: a push has no position, so it
    // counts as the agent's repeat (see TaskMirror). The replays below must not show at all.
    const statuses = [];
    for (const body of replayed) statuses.push((await receiver.handleRequest(delivery(body as Record<string, unknown>))).status);
    expect(statuses.every((s) => s === 204)).toBe(true);
    const events = await take(iteration);
    expect(chunks(events)).toEqual(['Hello', ', world', '!']);
    expect(events.at(-1)).toMatchObject({ object: 'chat.completion', done: true, text: 'Hello, world!', state: 'completed', taskId: 't1', agent: 'writer' });
  });

  it('v0.3 whole-Task snapshots, reordered and repeated: older ones ignored, only what is new emitted', async () => {
    const receiver = pushReceiver({ auth: open });
    const iteration = receiver.events('t1');
    const s1 = v03.task('t1', 'working', ['a'], 1);
    const s2 = v03.task('t1', 'working', ['a', 'b'], 1);
    const s3 = v03.task('t1', 'working', ['a', 'b', 'c'], 1);
    const done = v03.task('t1', 'completed', ['a', 'b', 'c', 'd'], 2);
    for (const body of [s2, s1, s3, s2, s1, done, s3]) expect((await receiver.handleRequest(delivery(body))).status).toBe(204);
    const events = await take(iteration);
    expect(chunks(events)).toEqual(['ab', 'c', 'd']);
    expect(events.at(-1)).toMatchObject({ object: 'chat.completion', done: true, text: 'abcd', state: 'completed' });
  });

  it('an older status than one already seen is ignored (by timestamp, and by state)', async () => {
    const receiver = pushReceiver({ auth: open });
    const iteration = receiver.events('t1');
    await receiver.handleRequest(delivery(v1.status('t1', 'working', 5, 'step two')));
    await receiver.handleRequest(delivery(v1.status('t1', 'working', 3, 'step one'))); // earlier timestamp
    await receiver.handleRequest(delivery(v1.task('t1', 'submitted'))); // earlier state
    await receiver.handleRequest(delivery(v1.status('t1', 'completed', 6)));
    const events = await take(iteration);
    expect(events.map((e) => [e.object, e.state, e.text])).toEqual([
      ['chat.completion.chunk', 'working', 'step two'],
      ['chat.completion', 'completed', ''],
    ]);
  });

  it('a bare v1.0 Task and v0.3 updates are read too; a Message ends the iteration once', async () => {
    const receiver = pushReceiver({ auth: open });
    const a = receiver.events('t1');
    await receiver.handleRequest(delivery(v1Task('t1', 'working', ['x'], 1)));
    await receiver.handleRequest(delivery(v03.chunk('t1', 'y')));
    await receiver.handleRequest(delivery(v03.status('t1', 'completed', 2)));
    expect((await take(a)).map((e) => e.text)).toEqual(['x', 'y', 'xy']);

    const b = receiver.events('t2');
    await receiver.handleRequest(delivery(v1.message('t2', 'm1', 'the answer')));
    await receiver.handleRequest(delivery(v1.message('t2', 'm1', 'the answer')));
    expect(await take(b)).toMatchObject([{ object: 'chat.completion', done: true, text: 'the answer' }]);
  });

  it('ends at an interrupted state, as stream() does', async () => {
    const receiver = pushReceiver({ auth: open });
    const iteration = receiver.events('t1');
    await receiver.handleRequest(delivery(v1.status('t1', 'input-required', 1, 'which city?')));
    const events = await take(iteration);
    expect(events.at(-1)).toMatchObject({ done: true, state: 'input-required' });
    // The iteration is over: its task is unknown again.
    expect((await receiver.handleRequest(delivery(v1.status('t1', 'working', 2)))).status).toBe(404);
  });

  it('a bounded buffer: one event too many ends the iteration with an overloaded error after what it holds; that delivery gets 503', async () => {
    const receiver = pushReceiver({ auth: open, maxBuffered: 3 });
    const iteration = receiver.events('t1');
    const statuses = [];
    for (const text of ['a', 'b', 'c', 'd']) statuses.push((await receiver.handleRequest(delivery(v1.chunk('t1', text)))).status);
    expect(statuses).toEqual([204, 204, 204, 503]);
    const events = await take(iteration);
    expect(events.map((e) => e.text ?? e.error?.code)).toEqual(['a', 'b', 'c', 'push_buffer_overflow']);
    expect(events.at(-1)).toMatchObject({ object: 'error', done: true, error: { type: 'overloaded', retryable: false } });
  });

  it('a break ends the iteration: later deliveries for the task are 404; a signal ends it with an aborted event', async () => {
    const receiver = pushReceiver({ auth: open });
    const first = receiver.events('t1');
    await receiver.handleRequest(delivery(v1.chunk('t1', 'a')));
    expect((await take(first, 1)).map((e) => e.text)).toEqual(['a']);
    expect((await receiver.handleRequest(delivery(v1.chunk('t1', 'b')))).status).toBe(404);

    const controller = new AbortController();
    const second = receiver.events('t2', { signal: controller.signal });
    await receiver.handleRequest(delivery(v1.chunk('t2', 'a')));
    controller.abort(new Error('user left'));
    expect((await take(second)).map((e) => e.text ?? e.error?.type)).toEqual(['a', 'aborted']);
  });
});
