/**
 * The floor: raw `undici.request` on a keep-alive Agent, JSON.stringify / JSON.parse, and
 * eventsource-parser for streams. No validation beyond what a careful hand-written client does.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { createParser } from 'eventsource-parser';

let nextId = 0;

function rpcBody(method, text) {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: ++nextId,
    method,
    params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } },
  });
}

/** A raw client for the JSON-RPC endpoint `rpcUrl`; `close()` ends its pool. */
export function rawClient(rpcUrl) {
  const dispatcher = new Agent({ keepAliveTimeout: 60_000, bodyTimeout: 0 });
  return {
    /** One SendMessage; throws unless a completed task came back. */
    async unary() {
      const { statusCode, body } = await request(rpcUrl, {
        method: 'POST',
        dispatcher,
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: rpcBody('SendMessage', 'hi'),
      });
      const json = JSON.parse(await body.text());
      if (statusCode !== 200 || json.result?.task?.status?.state !== 'TASK_STATE_COMPLETED') {
        throw new Error(`raw undici: unexpected answer ${statusCode}`);
      }
    },
    /** One SendStreamingMessage of `n` updates; resolves the number of events parsed. */
    async stream(n) {
      const { statusCode, body } = await request(rpcUrl, {
        method: 'POST',
        dispatcher,
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'a2a-version': '1.0' },
        body: rpcBody('SendStreamingMessage', `stream ${n}`),
      });
      if (statusCode !== 200) throw new Error(`raw undici: status ${statusCode}`);
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
    close: () => dispatcher.close(),
  };
}

/** Reads the agent card at `baseUrl` and returns its first JSON-RPC v1.0 endpoint. */
export async function rpcUrlOf(baseUrl) {
  const { body } = await request(`${baseUrl}/.well-known/agent-card.json`);
  const card = JSON.parse(await body.text());
  const iface = card.supportedInterfaces.find((i) => i.protocolBinding === 'JSONRPC' && i.protocolVersion === '1.0');
  if (!iface) throw new Error('bench card has no JSON-RPC v1.0 interface');
  return iface.url;
}
