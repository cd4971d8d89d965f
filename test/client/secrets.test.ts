/**
 * Secrets never leave: a header value the caller sets (options.headers record or function,
 * call.headers) appears in no error — message, fields, cause chain, attempts — no event of invoke /
 * stream and no onEvent payload, for every fault: refused, reset, hang, HTTP errors, problem+json,
 * JSON-RPC error data, google.rpc.Status, garbage and HTML bodies, SSE error frames, all echoing the
 * request's headers back (body and response headers), and a header value the platform rejects and
 * quotes. One loopback server with a switchable behaviour; both engines; all four bindings.
 */
import fc from 'fast-check';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLoopback, type ListeningServer } from '../../mocks/node-bridge.js';
import { A2AClient, isA2AClientError, isTerminalError, type AgentEvent, type ClientOptions } from '../../src/index.js';
import { REDACTED } from '../../src/errors/redact.js';
import { MIN_SECRET_LENGTH } from '../../src/errors/secrets.js';
import type { ResilienceEvent } from '../../src/resilience/event-types.js';
import { leaks } from '../errors/secret-leaks.js';
import { refusedPort } from '../helpers/fault-server.js';
import { COMBOS } from './harness.js';

const MODES = ['http-echo', 'problem-echo', 'rpc-echo', 'status-echo', 'garbage-echo', 'html-echo', 'reset', 'hang', 'refused', 'invalid-header'] as const;
type Mode = (typeof MODES)[number];
/** Modes whose answer quotes the request's headers: the error must show the marker where they were. */
const ECHOES: ReadonlySet<Mode> = new Set(['http-echo', 'problem-echo', 'rpc-echo', 'status-echo', 'garbage-echo', 'html-echo']);

let mode: Mode = 'hang';
/** Header values the server saw on the last request. */
let seen: string[] = [];

/** Every header value, and each without its auth scheme (`Bearer <token>` → `<token>`). */
function echoed(req: IncomingMessage): { values: string[]; tokens: string[] } {
  const values = Object.values(req.headers).flatMap((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
  return { values, tokens: values.map((v) => v.replace(/^\S+\s+/, '')) };
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  const { values, tokens } = echoed(req);
  seen = values;
  const sse = (req.headers.accept ?? '').includes('text/event-stream');
  const rpc = body.includes('"jsonrpc"');
  const id = rpc ? (JSON.parse(body) as { id: unknown }).id : null;
  const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(value));
  };
  switch (mode) {
    case 'http-echo':
      return json(503, { error: `denied for ${tokens.join(', ')}`, headers: req.headers }, { 'x-echo': values.join(' | '), 'retry-after': '0' });
    case 'problem-echo':
      res.writeHead(429, { 'content-type': 'application/problem+json' });
      return void res.end(JSON.stringify({ type: 'about:blank', title: `slow down ${tokens[0]}`, detail: tokens.join(' '), retry_after_ms: 1, echo: req.headers }));
    case 'rpc-echo': {
      const error = { code: -32603, message: `internal: ${tokens.join(' ')}`, data: { headers: req.headers, tokens, retry_after_ms: 1 } };
      if (sse) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.end(`event: error\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error })}\n\n`);
      }
      return rpc ? json(200, { jsonrpc: '2.0', id, error }) : json(500, error);
    }
    case 'status-echo':
      return json(401, { error: { code: 16, status: 'UNAUTHENTICATED', message: tokens.join(' '), details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'BAD_TOKEN', metadata: { token: tokens.join(' ') } }] } }, {
        'www-authenticate': `Bearer error="invalid_token", error_description="${values.join(' ').replace(/"/g, "'")}"`,
      });
    case 'garbage-echo':
      res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/json' });
      return void res.end(sse ? `data: {"oops": ${JSON.stringify(tokens)}\n\n` : `{"oops": ${JSON.stringify(tokens)}`);
    case 'html-echo':
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end(`<html><body>${values.join('<br>')}</body></html>`);
    case 'reset':
      return void req.socket.resetAndDestroy();
    default:
      // hang (and the modes that never reach the server): no answer.
      return;
  }
}

let server: ListeningServer;
let refused: string;
beforeAll(async () => {
  server = await listenLoopback((req, res) => {
    void handle(req, res);
  });
  refused = `http://127.0.0.1:${await refusedPort()}`;
});
afterAll(async () => {
  await server.close();
});

function card(base: string, [version, binding]: (typeof COMBOS)[number]): unknown {
  const common = { name: 'secret-keeper', description: 'd', version: '1', capabilities: { streaming: true }, defaultInputModes: [], defaultOutputModes: [], skills: [] };
  if (version === '1.0') return { ...common, supportedInterfaces: [{ url: `${base}/a2a`, protocolBinding: binding, protocolVersion: '1.0' }] };
  return { ...common, url: `${base}/a2a`, protocolVersion: '0.3.0', preferredTransport: binding };
}

/** A token that is a valid header value: printable ASCII, quotes and backslashes included. */
const token = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: MIN_SECRET_LENGTH, maxLength: 20 });
const header = fc.constantFrom(['authorization', (t: string) => `Bearer ${t}`] as const, ['x-api-key', (t: string) => t] as const);
const source = fc.constantFrom('record', 'function', 'call');
const call = fc.constantFrom('getTask', 'sendMessage', 'sendStreamingMessage', 'invoke', 'stream', 'connect');

const ENGINES: ReadonlyArray<[string, ClientOptions]> = [
  ['undici', {}],
  ['fetch', { fetch: 'global' }],
];

describe.each(ENGINES)('%s engine: no header value in any error, event or onEvent payload', (_name, engineOptions) => {
  it('holds for a random secret, every fault, every header source, every call', async () => {
    await fc.assert(
      fc.asyncProperty(token, header, source, fc.constantFrom(...MODES), fc.constantFrom(...COMBOS), call, async (tok, [name, value], from, m, combo, what) => {
        mode = m;
        seen = [];
        // An invalid header value (a line break) makes the platform throw, quoting it.
        const secret = m === 'invalid-header' ? `${tok.slice(0, 2)}\n${tok.slice(2)}` : tok;
        const headers = { [name]: value(secret) };
        const base = m === 'refused' ? refused : server.url;
        const events: ResilienceEvent[] = [];
        const options: ClientOptions = {
          ...engineOptions,
          ...(from === 'record' ? { headers } : from === 'function' ? { headers: async () => headers } : {}),
          // Generous enough that an echoing server always answers in time on a loaded machine.
          timeouts: { connectMs: 1_000, readMs: 300, streamIdleMs: 300, totalMs: 3_000 },
          retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2, maxServerDelayMs: 5, budget: false },
          circuitBreaker: false,
          onEvent: (e) => events.push(e),
        };
        const perCall = from === 'call' ? { headers } : {};
        const hi = { message: { parts: [{ kind: 'text' as const, text: 'hi' }] } };
        let outcome: unknown;
        if (what === 'connect') {
          outcome = await A2AClient.connect(base, options, perCall).then(
            async (c) => c.close(),
            (e: unknown) => e,
          );
        } else {
          let client: A2AClient | undefined;
          try {
            // A static header HTTP cannot carry is refused when the client is built.
            client = new A2AClient(card(base, combo), options);
            if (what === 'getTask') outcome = await client.getTask({ id: 't1' }, perCall).catch((e: unknown) => e);
            else if (what === 'sendMessage') outcome = await client.sendMessage(hi, perCall).catch((e: unknown) => e);
            else if (what === 'invoke') outcome = await client.invoke('hi', perCall);
            else {
              const out: unknown[] = [];
              const iterable = what === 'stream' ? client.stream('hi', perCall) : client.sendStreamingMessage(hi, perCall);
              try {
                for await (const ev of iterable) out.push(ev);
              } catch (error) {
                out.push(error);
              }
              outcome = out;
            }
          } catch (error) {
            outcome = error;
          } finally {
            await client?.close();
          }
        }
        for (const s of [tok, secret]) {
          expect(leaks(outcome, s)).toEqual([]);
          expect(leaks(events, s)).toEqual([]);
        }
        // The call failed (an error, or a terminal error event last), and an echoing server saw the
        // secret: what was redacted was really there.
        const last = Array.isArray(outcome) ? (outcome.at(-1) as unknown) : outcome;
        expect(isA2AClientError(last) || isTerminalError(last as AgentEvent)).toBe(true);
        if (ECHOES.has(m)) {
          expect(seen).toContain(value(secret));
          expect(inspect(outcome, { depth: Infinity })).toContain(REDACTED);
        }
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
