import { describe, expect, it } from 'vitest';
import { A2AClient, DEADLINE_HEADER, readDeadline } from '../../src/index.js';
import { mockAgent, replyText } from '../../mocks/index.js';

describe('deadline propagation', () => {
  it('reads the remaining deadline from Fetch headers, Node headers and records', () => {
    expect(readDeadline(new Headers({ [DEADLINE_HEADER]: '1500' }))).toBe(1500);
    expect(readDeadline({ 'A2A-Deadline-Ms': '20' })).toBe(20);
    expect(readDeadline({ [DEADLINE_HEADER]: ['30', '40'] })).toBe(30);
    expect(readDeadline({})).toBeUndefined();
    expect(readDeadline({ [DEADLINE_HEADER]: '-5' })).toBeUndefined();
    expect(readDeadline({ [DEADLINE_HEADER]: 'soon' })).toBeUndefined();
  });

  it('sends the time left of the call with propagateDeadline', async () => {
    const agent = mockAgent({ name: 'deadline-propagation', version: '1.0', binding: 'JSONRPC' });
    agent.on('sendMessage', replyText('ok'));
    const server = await agent.listen();
    const client = await A2AClient.connect(server.url, { propagateDeadline: true, timeouts: { totalMs: 5_000 } });
    try {
      await client.sendMessage({ message: { parts: [{ kind: 'text', text: 'hi' }] } });
      const sent = readDeadline(agent.callsOf('sendMessage')[0]?.headers ?? {});
      expect(sent).toBeGreaterThan(4_000);
      expect(sent).toBeLessThanOrEqual(5_000);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
