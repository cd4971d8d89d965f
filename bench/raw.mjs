/**
 * The floor: raw `undici.request` on a keep-alive Agent, JSON.stringify / JSON.parse, and
 * eventsource-parser for streams. No validation beyond what a careful hand-written client does.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { createParser } from 'eventsource-parser';

let nextId = 0;

function rpcBody(method, text, legacy) {
  const message = legacy
    ? { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }] }
    : { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
  return JSON.stringify({ jsonrpc: '2.0', id: ++nextId, method, params: { message } });
}

/**
 * A raw client for the JSON-RPC endpoint `rpcUrl`; `close()` ends its pool. `legacy: true` speaks
 * v0.3 (`message/send`, `message/stream`, kind-tagged parts); `dispatcher` replaces its own pool.
 */
export function rawClient(rpcUrl, { legacy = false, dispatcher = new Agent({ keepAliveTimeout: 60_000, bodyTimeout: 0 }) } = {}) {
  const version = legacy ? '0.3' : '1.0';
  /** The body of one SendStreamingMessage with `text` (throws unless 200). */
  async function streamBody(text) {
    const { statusCode, body } = await request(rpcUrl, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'a2a-version': version },
      body: rpcBody(legacy ? 'message/stream' : 'SendStreamingMessage', text, legacy),
    });
    if (statusCode !== 200) throw new Error(`raw undici: status ${statusCode}`);
    return body;
  }
  /** The events of one SendStreamingMessage as an async generator (see `streamIter`). */
  async function* streamEvents(text) {
    const body = await streamBody(text);
    let batch = [];
    const parser = createParser({ onEvent: (ev) => batch.push(JSON.parse(ev.data)) });
    const decoder = new TextDecoder();
    for await (const chunk of body) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      const read = batch;
      batch = [];
      yield* read;
    }
  }
  return {
    /** One SendMessage with `text`; throws unless a completed task came back. */
    async unary(text = 'hi') {
      const { statusCode, body } = await request(rpcUrl, {
        method: 'POST',
        dispatcher,
        headers: { 'content-type': 'application/json', 'a2a-version': version },
        body: rpcBody(legacy ? 'message/send' : 'SendMessage', text, legacy),
      });
      const json = JSON.parse(await body.text());
      const state = legacy ? json.result?.status?.state : json.result?.task?.status?.state;
      if (statusCode !== 200 || state !== (legacy ? 'completed' : 'TASK_STATE_COMPLETED')) {
        throw new Error(`raw undici: unexpected answer ${statusCode}`);
      }
    },
    /** One SendStreamingMessage of `n` updates (request text `text`); resolves the number of events parsed. */
    async stream(n, text = `stream ${n}`) {
      const body = await streamBody(text);
      let count = 0;
      const parser = createParser({
        onEvent(ev) {
          const msg = JSON.parse(ev.data);
          if (msg.result) count++;
        },
      });
      const decoder = new TextDecoder();
      for await (const chunk of body) parser.feed(decoder.decode(chunk, { stream: true }));
      return count;
    },
    /**
     * The same stream handed to its reader as an async iterator: each read parsed into its events,
     * then yielded one by one — the least any iterator API does (the floor for ours, whose public
     * streams are iterators: with many streams read side by side, each read's events wait for their
     * reader while the other streams take their turn). Resolves the number of events read.
     */
    async streamIter(n, text = `stream ${n}`) {
      let count = 0;
      for await (const msg of streamEvents(text)) if (msg.result) count++;
      return count;
    },
    close: () => dispatcher.close(),
  };
}

/** Reads the agent card at `baseUrl` and returns its first JSON-RPC endpoint of `version` (default v1.0). */
export async function rpcUrlOf(baseUrl, version = '1.0') {
  const { body } = await request(`${baseUrl}/.well-known/agent-card.json`);
  const card = JSON.parse(await body.text());
  const iface = card.supportedInterfaces.find((i) => i.protocolBinding === 'JSONRPC' && i.protocolVersion === version);
  if (!iface) throw new Error(`bench card has no JSON-RPC v${version} interface`);
  return iface.url;
}
