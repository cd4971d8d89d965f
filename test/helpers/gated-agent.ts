/**
 * A v1.0 JSON-RPC agent as a plain request listener, for `node:http` and `node:https` servers alike
 * (behind proxies, with TLS): serves its card, answers `SendMessage` with a Message, and streams
 * `SendStreamingMessage` as a Task, then — only once the test calls `release()` — a working update,
 * an artifact and the completed status. `SubscribeToTask` answers with the task as it stands and
 * its completion. The gate proves a stream is delivered as it is written, not buffered.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The agent's listener and its controls. */
export interface GatedAgent {
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Set once the server is listening: the URL the card advertises. */
  base: string;
  /** JSON-RPC methods and card fetches received, in order (`GET <path>` for the latter). */
  readonly calls: string[];
  /** Lets every waiting stream write its remaining events. */
  release(): void;
  /** Resolves when a stream has written its first event and waits at the gate. */
  readonly atGate: Promise<void>;
}

const TASK = { id: 'task-1', contextId: 'ctx-1' };
const UPDATE = { taskId: 'task-1', contextId: 'ctx-1' };

function frame(id: unknown, result: object): string {
  return `data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`;
}

/** A gated agent named `name`. */
export function gatedAgent(name: string): GatedAgent {
  const calls: string[] = [];
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let arrived: () => void = () => undefined;
  const atGate = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const agent: GatedAgent = {
    base: '',
    calls,
    release: () => open(),
    atGate,
    listener: (req, res) => {
      if (req.method === 'GET') {
        calls.push(`GET ${req.url ?? ''}`);
        const card = {
          name,
          version: '1.0.0',
          description: 'gated test agent',
          supportedInterfaces: [{ url: agent.base, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
          capabilities: { streaming: true },
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [],
        };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card));
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rpc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown; method: string };
        calls.push(rpc.method);
        if (rpc.method === 'SendMessage') {
          const message = { messageId: 'm-1', role: 'ROLE_AGENT', contextId: 'ctx-1', parts: [{ text: 'pong' }] };
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: { message } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const done = { statusUpdate: { ...UPDATE, status: { state: 'TASK_STATE_COMPLETED' } } };
        const artifact = { artifactUpdate: { ...UPDATE, artifact: { artifactId: 'out', parts: [{ text: 'hello' }] }, lastChunk: true } };
        if (rpc.method === 'SubscribeToTask') {
          res.write(frame(rpc.id, { task: { ...TASK, status: { state: 'TASK_STATE_WORKING' } } }));
          res.write(frame(rpc.id, artifact));
          res.end(frame(rpc.id, done));
          return;
        }
        res.write(frame(rpc.id, { task: { ...TASK, status: { state: 'TASK_STATE_SUBMITTED' } } }));
        arrived();
        void gate.then(() => {
          if (res.destroyed) return;
          res.write(frame(rpc.id, { statusUpdate: { ...UPDATE, status: { state: 'TASK_STATE_WORKING' } } }));
          res.write(frame(rpc.id, artifact));
          res.end(frame(rpc.id, done));
        });
      });
    },
  };
  return agent;
}
