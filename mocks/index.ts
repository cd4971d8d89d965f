/**
 * Mock A2A agents for testing coordinators against misbehaving remote agents.
 *
 * `mockAgent({ name, version: '1.0' | '0.3', binding: 'JSONRPC' | 'HTTP+JSON' })` builds a fake agent that
 * speaks the real wire format of that version and binding (as the official `@a2a-js/sdk` server writes it).
 * Use `agent.handlers` with msw's `setupServer` (global fetch), or `await agent.listen()` for a real
 * loopback server (`{ url, close }`) so sockets, timeouts and drops are real. Script behaviour per call;
 * a script for `sendMessage` also answers streaming sends unless `sendStreamingMessage` has its own:
 *
 * ```ts
 * const agent = mockAgent({ name: 'billing', version: '1.0', binding: 'JSONRPC' });
 * // `on` sets a method's script for every call; `reply` / `once` queue a scenario for ONE call each.
 * agent.on('sendMessage', failFirst(2, httpError(503, { retryAfter: 1 }), replyText('ok')));
 * agent.on('sendStreamingMessage', stream([{ status: 'working' }, { artifact: 'hi' }, { status: 'completed' }], { gapMs: 50, dropAfter: 2 }));
 * const { url, close } = await agent.listen();
 * const client = await A2AClient.connect(url);
 * const answer = await client.invoke('total?'); // two 503s, each Retry-After waited out, then answer.at(-1).text === 'ok'
 * let streamed = '';
 * for await (const event of client.stream('hello?')) if (event.done) streamed = event.text ?? ''; // dropped, resumed: 'hi'
 * await client.close();
 * await close();
 * ```
 *
 * @module a2a-resilient/mocks
 */
export { MockAgent, mockAgent, type MockAgentOptions, type MockServer } from './mock-agent.js';
export type { MockCall } from './core.js';
export type { MockListenOptions } from './node-bridge.js';
export {
  delay,
  errorInfo,
  failFirst,
  failedTask,
  freshIds,
  hang,
  httpError,
  jsonRpcError,
  replyTask,
  replyText,
  reset,
  retryInfo,
  stream,
  type FailedTaskOptions,
  type HttpErrorOptions,
  type MockMethod,
  type Outcome,
  type ReplyTaskOptions,
  type Scenario,
  type ScenarioContext,
  type StreamOptions,
} from './scenarios.js';
export type { StreamStep, TaskIds } from './steps.js';
export { TaskStore } from './task-store.js';
export type { WireObject } from './wire-v1.js';
