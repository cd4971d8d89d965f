/**
 * `resilientTransportsV03` over answers chosen at random (property-based): a v0.3 JSON-RPC agent
 * answering random tasks, and the 0.3 `Client` over our transports and over its own returns the same
 * objects for `getTask`, `sendMessage` and `sendMessageStream`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ClientFactory, ClientFactoryOptions, type Client } from '@a2a-js/sdk-v03/client';
import type { MessageSendParams } from '@a2a-js/sdk-v03';
import { resilientTransportsV03 } from '../../src/a2a-js/index.js';
import { decodeV1StreamEvent } from '../../src/protocol/v1/codec.js';
import { eventToV03 } from '../../src/protocol/v03/encode-results.js';
import { recordingAgent, rpcId, type RecordingAgent } from '../helpers/recording-agent.js';
import { v1TaskArb } from '../helpers/v1-arbitraries.js';
import { all } from './sdk-clients.js';

let agent: RecordingAgent;
let answer: Record<string, unknown> = {};
let ours: Client;
let theirs: Client;
beforeAll(async () => {
  agent = await recordingAgent((req, url) => {
    if (req.method === 'GET') return { body: { name: 'random v0.3 agent', description: 'd', version: '1', protocolVersion: '0.3.0', url: `${url}/rpc`, preferredTransport: 'JSONRPC', capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [] } };
    const envelope = { jsonrpc: '2.0', id: rpcId(req), result: answer };
    return req.headers.accept?.includes('text/event-stream') === true ? { sse: [envelope] } : { body: envelope };
  });
  ours = await new ClientFactory({ transports: resilientTransportsV03({ retry: false }) }).createFromUrl(agent.url);
  theirs = await new ClientFactory(ClientFactoryOptions.default).createFromUrl(agent.url);
});
afterAll(async () => {
  await agent.close();
});

const send = (): MessageSendParams => ({ message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'x' }] } });

describe('answers chosen at random (property): ours returns what the official 0.3 transport returns', () => {
  it('getTask, sendMessage and a one-event stream of a random completed task decode deep-equal', async () => {
    await fc.assert(
      fc.asyncProperty(v1TaskArb, async (generated) => {
        answer = eventToV03(decodeV1StreamEvent({ task: { ...generated, status: { ...generated.status, state: 'TASK_STATE_COMPLETED' } } }));
        expect(await ours.getTask({ id: 'x' })).toEqual(await theirs.getTask({ id: 'x' }));
        expect(await ours.sendMessage(send())).toEqual(await theirs.sendMessage(send()));
        expect(await all(ours.sendMessageStream(send()))).toEqual(await all(theirs.sendMessageStream(send())));
      }),
      { numRuns: 40 },
    );
  });
});
