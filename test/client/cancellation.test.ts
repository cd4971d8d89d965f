import { describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError } from '../../src/index.js';
import { hang, mockAgent, stream, type MockAgent } from '../../mocks/index.js';
import { WAYS, collect, rejection, uniqueName, useHarness } from './harness.js';

const h = useHarness();
const hi = { message: { parts: [{ kind: 'text' as const, text: 'hi' }] } };

/** Generous windows: CI is a busy 2-core machine. */
const SLACK_MS = 2_000;

describe.each(WAYS)('per-call abort and deadline (%s)', (way) => {
  async function setup(): Promise<{ agent: MockAgent; client: A2AClient }> {
    const agent = mockAgent({ name: uniqueName('cancel'), version: '1.0', binding: 'JSONRPC' });
    const served = await h.agent(way, agent);
    const client = await A2AClient.connect(served.url, served.options);
    h.defer(() => client.close());
    return { agent, client };
  }

  it('signal abort ends a hanging sendMessage with kind aborted and the reason as cause', async () => {
    const { agent, client } = await setup();
    agent.on('sendMessage', hang());
    const controller = new AbortController();
    const reason = new Error('the user left');
    const timer = setTimeout(() => controller.abort(reason), 100);
    const started = performance.now();
    const error = await rejection(client.sendMessage(hi, { signal: controller.signal }));
    clearTimeout(timer);
    const elapsed = performance.now() - started;
    expect(isA2AClientError(error) ? [error.kind, error.cause, error.method] : error).toEqual(['aborted', reason, 'sendMessage']);
    expect(elapsed).toBeGreaterThanOrEqual(90);
    expect(elapsed).toBeLessThan(100 + SLACK_MS);
    expect(agent.callsOf('sendMessage')).toHaveLength(1);
  });

  it('an already aborted signal fails at once without calling the agent', async () => {
    const { agent, client } = await setup();
    const reason = new Error('too late');
    const error = await rejection(client.getTask({ id: 'task-x' }, { signal: AbortSignal.abort(reason) }));
    expect(isA2AClientError(error) ? [error.kind, error.cause] : error).toEqual(['aborted', reason]);
    expect(agent.calls).toEqual([]);
  });

  it('signal abort ends a stream that has gone quiet', async () => {
    const { agent, client } = await setup();
    agent.reply(stream([{ status: 'working' }, { status: 'completed' }], { idleAfter: 2 }));
    const controller = new AbortController();
    const reason = new Error('stop streaming');
    const seen: string[] = [];
    const run = (async () => {
      for await (const ev of client.sendStreamingMessage(hi, { signal: controller.signal })) {
        seen.push(ev.kind === 'task' || ev.kind === 'status-update' ? `${ev.kind}:${ev.status.state}` : ev.kind);
        if (seen.length === 2) setTimeout(() => controller.abort(reason), 50);
      }
    })();
    const error = await rejection(run);
    expect(isA2AClientError(error) ? [error.kind, error.cause] : error).toEqual(['aborted', reason]);
    expect(seen).toEqual(['task:submitted', 'status-update:working']);
  });

  it('timeouts.totalMs ends a hanging call with kind deadline-exceeded near the deadline', async () => {
    const { agent, client } = await setup();
    agent.on('sendMessage', hang());
    const started = performance.now();
    const error = await rejection(client.sendMessage(hi, { timeouts: { totalMs: 300 } }));
    const elapsed = performance.now() - started;
    expect(isA2AClientError(error) ? [error.kind, error.method] : error).toEqual(['deadline-exceeded', 'sendMessage']);
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(300 + SLACK_MS);
    // The client's own timeouts are unchanged for the next call.
    expect(client.timeouts.totalMs).toBe(120_000);
  });

  it('timeouts.totalMs bounds a stream too (events before it are delivered)', async () => {
    const { agent, client } = await setup();
    agent.reply(stream([{ status: 'working' }, { status: 'completed' }], { idleAfter: 2 }));
    const seen: string[] = [];
    const started = performance.now();
    const error = await rejection(
      (async () => {
        for await (const ev of client.sendStreamingMessage(hi, { timeouts: { totalMs: 400 } })) seen.push(ev.kind);
      })(),
    );
    const elapsed = performance.now() - started;
    expect(isA2AClientError(error) ? error.kind : error).toBe('deadline-exceeded');
    expect(seen).toEqual(['task', 'status-update']);
    expect(elapsed).toBeGreaterThanOrEqual(380);
    expect(elapsed).toBeLessThan(400 + SLACK_MS);
  });

  it('stream() turns an abort into one terminal error event instead of throwing', async () => {
    const { agent, client } = await setup();
    agent.on('sendStreamingMessage', hang());
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('cancelled by coordinator')), 100);
    const events = await collect(client.stream('x', { signal: controller.signal }));
    clearTimeout(timer);
    expect(events.map((e) => [e.object, e.done, e.agent])).toEqual([['error', true, agent.name]]);
    const cause = events[0]?.error?.cause;
    expect(isA2AClientError(cause) ? cause.kind : cause).toBe('aborted');
  });

  it('signal abort before the first stream event: kind aborted with the reason as cause', async () => {
    const { agent, client } = await setup();
    agent.on('sendStreamingMessage', hang());
    const controller = new AbortController();
    const reason = new Error('the user left');
    const timer = setTimeout(() => controller.abort(reason), 100);
    const error = await rejection(collect(client.sendStreamingMessage(hi, { signal: controller.signal })));
    clearTimeout(timer);
    expect(isA2AClientError(error) ? [error.kind, error.cause] : error).toEqual(['aborted', reason]);
  });

  it('timeouts.totalMs before the first stream event: kind deadline-exceeded', async () => {
    const { agent, client } = await setup();
    agent.on('sendStreamingMessage', hang());
    const started = performance.now();
    const error = await rejection(collect(client.sendStreamingMessage(hi, { timeouts: { totalMs: 300 } })));
    expect(performance.now() - started).toBeLessThan(300 + SLACK_MS);
    expect(isA2AClientError(error) ? error.kind : error).toBe('deadline-exceeded');
  });
});
