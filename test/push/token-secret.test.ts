/**
 * The push token is a secret everywhere the SDK reports: an agent whose error answer to the
 * push-config create echoes the config (as JSON-RPC error data, or as an HTTP error body) does not
 * get the token into the iteration's error event (`error.message`, `error.cause.attempts[…].bodyText`),
 * the client's `onEvent`, or the `a2a-resilient:give-up` diagnostics event.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type AgentEvent } from '../../src/index.js';
import { pushReceiver } from '../../src/push/index.js';
import { leaks } from '../errors/secret-leaks.js';
import { recordingAgent, rpcId, rpcMethod, v1Card, type Answer, type Recorded, type RecordingAgent } from '../helpers/recording-agent.js';

const agents: RecordingAgent[] = [];
const channels: Array<[string, (m: unknown) => void]> = [];
afterEach(async () => {
  for (const [name, fn] of channels.splice(0)) unsubscribe(name, fn);
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

/** The token the receiver generated, read from the config the agent received. */
function tokenOf(req: Recorded): string {
  const text = req.body;
  const match = /"(?:token|credentials)":"([^"]+)"/.exec(text);
  if (!match?.[1]) throw new Error(`no token in ${text}`);
  return match[1];
}

async function echoingAgent(answer: (req: Recorded) => Answer): Promise<RecordingAgent> {
  const agent = await recordingAgent((req, url) => {
    if (req.method === 'GET') return { body: v1Card(`${url}/rpc`, 'echo') };
    const method = rpcMethod(req);
    if (method === 'CreateTaskPushNotificationConfig' || method === 'tasks/pushNotificationConfig/set') return answer(req);
    return { body: { jsonrpc: '2.0', id: rpcId(req), error: { code: -32001, message: 'Task not found' } } };
  });
  agents.push(agent);
  return agent;
}

async function run(answer: (req: Recorded) => Answer): Promise<{ token: string; events: AgentEvent[]; reported: unknown[]; published: unknown[] }> {
  const agent = await echoingAgent(answer);
  const reported: unknown[] = [];
  const published: unknown[] = [];
  const fn = (m: unknown): void => void published.push(m);
  subscribe('a2a-resilient:give-up', fn);
  channels.push(['a2a-resilient:give-up', fn]);
  const client = await A2AClient.connect(agent.url, { retry: { maxAttempts: 2, baseDelayMs: 1, budget: false }, onEvent: (e) => reported.push(e) });
  const receiver = pushReceiver();
  const events: AgentEvent[] = [];
  for await (const event of receiver.register(client, 't1', { url: 'https://coordinator.example/push' })) events.push(event);
  await receiver.close();
  const create = agent.requests.find((r) => r.method === 'POST' && /PushNotificationConfig|pushNotificationConfig/.test(r.body));
  if (create === undefined) throw new Error('no create request');
  return { token: tokenOf(create), events, reported, published };
}

describe('the push token is a secret', () => {
  it('an echo in JSON-RPC error data: not in the error event, its attempts, onEvent or diagnostics', async () => {
    const { token, events, reported, published } = await run((req) => ({
      body: { jsonrpc: '2.0', id: rpcId(req), error: { code: -32603, message: `cannot store ${req.body}`, data: { config: req.json } } },
    }));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ object: 'error' });
    expect(leaks(events, token)).toEqual([]);
    expect(leaks(reported, token)).toEqual([]);
    expect(leaks(published, token)).toEqual([]);
  });

  it('an echo in an HTTP error body (retried, then given up): nowhere either', async () => {
    const { token, events, reported, published } = await run((req) => ({ status: 503, headers: { 'content-type': 'application/json' }, body: `{"error":"unavailable","echo":${req.body}}` }));
    expect(events).toHaveLength(1);
    const error = events[0]?.error as unknown as { message: string; cause?: { attempts?: Array<{ bodyText?: string }> } };
    expect(error.message).not.toContain(token);
    expect(JSON.stringify(error.cause?.attempts ?? [])).not.toContain(token);
    expect(leaks(events, token)).toEqual([]);
    expect(published.length + reported.length).toBeGreaterThan(0);
    expect(leaks(reported, token)).toEqual([]);
    expect(leaks(published, token)).toEqual([]);
  });
});
