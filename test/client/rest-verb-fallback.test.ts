import { describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/index.js';
import { WAYS, collect, useHarness, uniqueName, type RawRequest, type RawResponse } from './harness.js';

const h = useHarness();

describe.each(WAYS)('REST SubscribeToTask verb fallback (%s)', (way) => {
  it('retries with the other verb when the server answers 405', async () => {
    const name = uniqueName('verb');
    const seen: string[] = [];
    let base = '';
    const handler = (req: RawRequest): RawResponse => {
      seen.push(`${req.method} ${req.path}`);
      if (req.path === '/.well-known/agent-card.json') {
        const card = { name, supportedInterfaces: [{ url: base, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }], capabilities: { streaming: true } };
        return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(card) };
      }
      if (seen.filter((s) => s.endsWith(':subscribe')).length === 1) return { status: 405, headers: { 'content-type': 'text/plain' }, body: 'method not allowed' };
      const snapshot = { task: { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } } };
      return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: `data: ${JSON.stringify(snapshot)}\n\n` };
    };
    const served = await h.raw(way, handler);
    base = served.url;
    const client = await A2AClient.connect(served.url, served.options);
    h.defer(() => client.close());
    const events = await collect(client.subscribeToTask({ id: 't1' }));
    expect(events.map((e) => (e.kind === 'task' ? [e.id, e.status.state] : e.kind))).toEqual([['t1', 'completed']]);
    const verbs = seen.filter((s) => s.endsWith(':subscribe')).map((s) => s.split(' ')[0]);
    expect(verbs).toHaveLength(2);
    expect(new Set(verbs)).toEqual(new Set(['GET', 'POST']));
  });
});
