import { afterEach, describe, expect, it } from 'vitest';
import { mockAgent, type MockServer } from 'a2a-resilient/mocks';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('mock agent card', () => {
  it('v1.0 serves supportedInterfaces pointing at the real loopback port', async () => {
    const agent = mockAgent({ name: 'planner', version: '1.0', binding: 'HTTP+JSON' });
    expect(agent.card).toMatchObject({ supportedInterfaces: [{ url: 'http://planner.agents.test', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }] });
    const server = await agent.listen();
    servers.push(server);
    const res = await fetch(`${server.url}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    const card: unknown = await res.json();
    expect(card).toMatchObject({
      name: 'planner',
      supportedInterfaces: [{ url: server.url, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
      capabilities: { streaming: true, extendedAgentCard: true },
    });
    expect(card).not.toHaveProperty('url');
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('v0.3 serves url, preferredTransport and protocolVersion 0.3.0', async () => {
    const agent = mockAgent({ name: 'legacy', version: '0.3', binding: 'JSONRPC', streaming: false });
    const server = await agent.listen();
    servers.push(server);
    const card: unknown = await (await fetch(`${server.url}/.well-known/agent-card.json`)).json();
    expect(card).toMatchObject({ url: server.url, preferredTransport: 'JSONRPC', protocolVersion: '0.3.0', capabilities: { streaming: false } });
    expect(card).not.toHaveProperty('supportedInterfaces');
    await server.close();
    expect(agent.card).toMatchObject({ url: 'http://legacy.agents.test' });
  });
});
