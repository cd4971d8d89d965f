/**
 * Shared setup of the `a2a-resilient/a2a-js` tests: official `@a2a-js/sdk` clients over our transports
 * and over their own, and a normaliser that makes two runs of the same script comparable (server-made
 * ids and timestamps replaced by their order of first appearance).
 */
import { ClientFactory, ClientFactoryOptions, type Client } from '@a2a-js/sdk/client';
import { Role, type Message, type SendMessageRequest } from '@a2a-js/sdk';
import { resilientCardResolver, resilientTransports, type ResilientTransportOptions } from '../../src/a2a-js/index.js';

/** `@a2a-js/sdk` 1.x clients of one agent: over our transports, and over the SDK's own. */
export async function clientPair(baseUrl: string, binding: 'JSONRPC' | 'HTTP+JSON', options: ResilientTransportOptions = {}): Promise<{ ours: Client; theirs: Client }> {
  const ours = await new ClientFactory({ transports: resilientTransports(options), cardResolver: resilientCardResolver(options), preferredTransports: [binding] }).createFromUrl(baseUrl);
  const theirs = await new ClientFactory({ ...ClientFactoryOptions.default, preferredTransports: [binding] }).createFromUrl(baseUrl);
  return { ours, theirs };
}

/** A user message as the SDK types it. */
export function userMessage(text: string, extra: Partial<Message> = {}): Message {
  return {
    messageId: crypto.randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined, extensions: [], referenceTaskIds: [], ...extra,
  };
}

/** A `SendMessageRequest` for `text`. */
export function sendRequest(text: string, extra: Partial<Message> = {}): SendMessageRequest {
  return { tenant: '', message: userMessage(text, extra), configuration: undefined, metadata: undefined };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g;

/** `value` with every UUID and ISO timestamp replaced by `<id n>` / `<time>`, n by first appearance. */
export function normalise(value: unknown): unknown {
  const ids = new Map<string, string>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(UUID, (id) => ids.get(id) ?? (ids.set(id, `<id ${ids.size}>`), ids.get(id) ?? id)).replace(ISO, '<time>');
    if (Array.isArray(v)) return v.map(walk);
    if (Buffer.isBuffer(v)) return v;
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

/** Every item of a stream. */
export async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** What a promise rejects with (fails the test when it resolves). */
export async function thrown(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error || error instanceof DOMException) return error;
    throw new Error(`rejected with a non-error: ${String(error)}`, { cause: error });
  }
  throw new Error('expected a rejection, but it resolved');
}
