/**
 * gRPC channels are an engine-level resource: one per target, shared by every client of it in the
 * process, closed by the `client.close()` of the last client that holds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from 'a2a-resilient';
import { openChannelCount } from '../../../src/protocol/grpc/grpc-channel-pool.js';
import { startOfficialGrpcServer, type OfficialGrpcServer } from '../../helpers/official-grpc-server.js';

let server: OfficialGrpcServer;
beforeAll(async () => {
  server = await startOfficialGrpcServer();
});
afterAll(async () => {
  await server.close();
});

const hi = { message: { role: 'user' as const, parts: [{ kind: 'text' as const, text: 'echo hi' }] } };

describe('gRPC channel pool', () => {
  it('two clients of one target share a channel; it closes with the last client, not the first', async () => {
    const before = openChannelCount();
    const first = await A2AClient.connect(server.baseUrl, { retry: false });
    const second = await A2AClient.connect(server.baseUrl, { retry: false });
    expect(first.protocol.binding).toBe('GRPC');
    await first.sendMessage(hi);
    await second.sendMessage(hi);
    expect(openChannelCount()).toBe(before + 1);
    await first.close();
    expect(openChannelCount()).toBe(before + 1);
    // The channel the first client let go of still carries the second's calls.
    expect((await second.sendMessage(hi)).kind).toMatch(/^(task|message)$/);
    await second.close();
    expect(openChannelCount()).toBe(before);
  });

  it('a client with other channel settings (keepalive) gets a channel of its own', async () => {
    const before = openChannelCount();
    const plain = await A2AClient.connect(server.baseUrl, { retry: false });
    const tuned = await A2AClient.connect(server.baseUrl, { retry: false, grpc: { keepalive: false } });
    await plain.sendMessage(hi);
    await tuned.sendMessage(hi);
    expect(openChannelCount()).toBe(before + 2);
    await Promise.all([plain.close(), tuned.close()]);
    expect(openChannelCount()).toBe(before);
  });
});
