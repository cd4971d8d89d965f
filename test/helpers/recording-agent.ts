/**
 * A hand-written A2A agent on a real `node:http` loopback server that records every request it
 * receives (method, path, headers, body) and answers with whatever the test's handler returns: a
 * JSON body with any content type, an SSE stream, any status and headers. For tests that assert on
 * the wire itself (trace context, credentials, challenges, media types, signed cards).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLoopback } from '../../mocks/node-bridge.js';

/** One request as the agent received it. */
export interface Recorded {
  method: string;
  path: string;
  /** Lower-cased names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
}

/** What the agent answers. `body` objects are sent as JSON; `sse` frames as `data:` events. */
export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | object;
  /** SSE `data:` payloads (objects are JSON-encoded), sent one write each. */
  sse?: Array<string | object>;
}

/** A running recording agent. */
export interface RecordingAgent {
  url: string;
  /** Every request, in order. */
  readonly requests: Recorded[];
  close(): Promise<void>;
}

/** The JSON-RPC request id of a recorded request (for echoing it), or `null`. */
export function rpcId(req: Recorded): string | number | null {
  const json = req.json;
  if (typeof json === 'object' && json !== null && 'id' in json) {
    const id = (json as { id: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') return id;
  }
  return null;
}

/** The JSON-RPC method of a recorded request, or `undefined`. */
export function rpcMethod(req: Recorded): string | undefined {
  const json = req.json;
  if (typeof json === 'object' && json !== null && 'method' in json) {
    const method = (json as { method: unknown }).method;
    if (typeof method === 'string') return method;
  }
  return undefined;
}

/** A minimal v1.0 card for an agent at `url` speaking `binding`. */
export function v1Card(url: string, name: string, binding: 'JSONRPC' | 'HTTP+JSON' = 'JSONRPC', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    description: `${name} (recording agent)`,
    version: '1.0.0',
    supportedInterfaces: [{ url, protocolBinding: binding, protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'echo', description: 'echoes', tags: ['test'] }],
    ...extra,
  };
}

/** A v1.0 agent Message result carrying `text`. */
export function v1Message(text: string, contextId = 'ctx-1'): Record<string, unknown> {
  return { message: { messageId: `m-${Math.random().toString(36).slice(2, 10)}`, role: 'ROLE_AGENT', contextId, parts: [{ text }] } };
}

/**
 * Starts a recording agent on 127.0.0.1 (ephemeral port). `handle` answers each request; a handler
 * that throws answers 500 with its message.
 */
export async function recordingAgent(handle: (req: Recorded, url: string) => Answer | Promise<Answer>): Promise<RecordingAgent> {
  const requests: Recorded[] = [];
  let base = '';
  const server = await listenLoopback((req, res) => {
    void serve(req, res);
  });
  base = server.url;

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    let json: unknown;
    try {
      json = body === '' ? undefined : (JSON.parse(body) as unknown);
    } catch {
      // Not JSON: the test reads `body`.
      json = undefined;
    }
    const recorded: Recorded = { method: req.method ?? 'GET', path: req.url ?? '/', headers, body, json };
    requests.push(recorded);
    let answer: Answer;
    try {
      answer = await handle(recorded, base);
    } catch (error) {
      answer = { status: 500, headers: { 'content-type': 'text/plain' }, body: error instanceof Error ? error.message : String(error) };
    }
    if (answer.sse) {
      res.writeHead(answer.status ?? 200, { 'content-type': 'text/event-stream', ...answer.headers });
      for (const frame of answer.sse) res.write(`data: ${typeof frame === 'string' ? frame : JSON.stringify(frame)}\n\n`);
      res.end();
      return;
    }
    const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    const type = typeof answer.body === 'object' ? { 'content-type': 'application/json' } : {};
    res.writeHead(answer.status ?? 200, { ...type, ...answer.headers });
    res.end(text);
  }

  return { url: server.url, requests, close: server.close };
}
