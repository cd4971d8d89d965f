/**
 * Properties of response decoding: whatever a server answers — truncated JSON, wrong types, HTML,
 * nothing, huge numbers, a wrong JSON-RPC id, no result and no error, both, a non-object — a call ends
 * in a typed A2AClientError of the kind that fits (or succeeds on a valid body), never another throw,
 * a crash or a hang. Many random values straight into the decoders; fewer through a loopback server.
 */
import fc from 'fast-check';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLoopback, type ListeningServer } from '../../mocks/node-bridge.js';
import { isA2AClientError } from '../../src/errors/a2a-client-error.js';
import type { UnaryMethod } from '../../src/protocol/binding.js';
import type { VersionCodec } from '../../src/protocol/codec.js';
import { createBinding } from '../../src/protocol/create-binding.js';
import { readEnvelope, errorFromBody } from '../../src/protocol/response-errors.js';
import { v03Codec, v03RestCodec } from '../../src/protocol/v03/codec.js';
import { v1Codec } from '../../src/protocol/v1/codec.js';
import type { HttpEngine } from '../../src/transport/engine.js';
import { DEFAULT_LIMITS } from '../../src/transport/settings.js';
import { ENGINES } from '../transport/harness.js';
import { type Json, VALID, weirdJson, mutated, malformedBody } from './malformed.js';
import { COMBOS } from '../client/harness.js';

/** Calls `fn`; a throw must be an A2AClientError of one of `kinds`. True when it returned. */
function typedOrValue(fn: () => unknown, kinds: readonly string[]): boolean {
  try {
    fn();
    return true;
  } catch (error) {
    if (!isA2AClientError(error)) throw new Error(`not an A2AClientError: ${String(error)}`, { cause: error });
    expect(kinds).toContain(error.kind);
    return false;
  }
}

const CODECS: ReadonlyArray<[string, VersionCodec]> = [
  ['v1.0', v1Codec],
  ['v0.3 JSON-RPC', v03Codec],
  ['v0.3 REST', v03RestCodec],
];
const METHODS = Object.keys(VALID['1.0']).filter((m) => m !== 'stream') as UnaryMethod[];

describe.each(CODECS)('%s decoders, on random values', (_name, codec) => {
  const valid = VALID[codec.version];
  const input = fc.oneof(weirdJson, ...METHODS.map((m) => mutated(valid[m])), mutated(valid.stream));

  it('every unary result decoder returns or throws invalid-response (card: kind card)', () => {
    fc.assert(
      fc.property(input, fc.constantFrom(...METHODS), (json, method) => {
        const decode: (json: unknown) => unknown = codec.decode[method];
        typedOrValue(() => decode(json), method === 'getExtendedAgentCard' ? ['card', 'invalid-response'] : ['invalid-response']);
      }),
      { numRuns: 800 },
    );
  });

  it('the stream item decoder returns or throws invalid-response', () => {
    fc.assert(
      fc.property(input, (json) => {
        typedOrValue(() => codec.decodeStreamEvent(json), ['invalid-response']);
      }),
      { numRuns: 500 },
    );
  });

  it('decodes the valid fixtures (the generators start from real answers)', () => {
    for (const m of METHODS) if (!(codec.version === '0.3' && m === 'listTasks')) expect(typedOrValue(() => codec.decode[m](valid[m]), [])).toBe(true);
  });
});

describe('JSON-RPC envelopes and error bodies, on random values', () => {
  it('readEnvelope returns or throws invalid-response', () => {
    const envelope = fc.oneof(weirdJson, mutated({ jsonrpc: '2.0', id: 1, result: VALID['1.0'].getTask }), mutated({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'x', data: [{ a: 1 }] } }));
    fc.assert(
      fc.property(envelope, (json) => {
        typedOrValue(() => readEnvelope(json, 'getTask'), ['invalid-response']);
      }),
      { numRuns: 500 },
    );
  });

  it('errorFromBody always builds an http or json-rpc error carrying the status', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 599 }), malformedBody('1.0', 1), fc.constantFrom('1.0' as const, '0.3' as const), (status, body, version) => {
        const error = errorFromBody(status, body(1), { version, method: 'getTask', status });
        expect(isA2AClientError(error)).toBe(true);
        expect(['http', 'json-rpc']).toContain(error.kind);
        expect(error.status).toBe(status);
      }),
      { numRuns: 500 },
    );
  });
});

/** What the loopback server answers next. */
interface Answer {
  status: number;
  contentType: string | undefined;
  /** A function of the request's JSON-RPC id, so a body can echo it (or not). */
  body: (id: Json) => string;
}

let answer: Answer = { status: 200, contentType: 'application/json', body: () => '' };

async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  let id: Json = null;
  try {
    const parsed = JSON.parse(text) as { id?: Json };
    id = parsed.id ?? null;
  } catch {
    // A REST GET has no body: the id is not used.
  }
  const headers: Record<string, string> = {};
  if (answer.contentType !== undefined) headers['content-type'] = answer.contentType;
  res.writeHead(answer.status, headers);
  res.end(answer.status === 204 ? undefined : answer.body(id));
}

const STATUSES = [200, 200, 200, 200, 201, 204, 301, 400, 401, 404, 409, 429, 500, 502, 503];
const TYPES = ['application/json', 'application/json; charset=utf-8', 'application/a2a+json', 'application/problem+json', 'text/html', 'text/plain', undefined];
describe.each(ENGINES)('$name engine: unary calls against a loopback server answering at random', ({ make }) => {
  let server: ListeningServer;
  let engine: HttpEngine;
  beforeAll(async () => {
    server = await listenLoopback((req, res) => {
      void serve(req, res);
    });
    engine = make();
  });
  afterAll(async () => {
    await engine.close();
    await server.close();
  });

  it.each(COMBOS)('%s %s: a typed error of the fitting kind, or a result only for a valid 2xx body', async (version, bindingName) => {
    const binding = createBinding(version, bindingName);
    const ctx = { engine, url: `${server.url}/a2a`, headers: {}, timeouts: { connectMs: 2_000, readMs: 2_000, streamIdleMs: 2_000 }, limits: DEFAULT_LIMITS };
    const envelope = bindingName === 'JSONRPC';
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...STATUSES),
        fc.constantFrom(...TYPES),
        fc.constantFrom<UnaryMethod>('getTask', 'sendMessage'),
        malformedBody(version, envelope ? 'echo' : undefined),
        async (status, contentType, method, body) => {
          answer = { status, contentType, body };
          const params = method === 'getTask' ? { id: 't1' } : { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } };
          let error: unknown;
          try {
            await binding.unary(method, params as never, ctx);
          } catch (e) {
            error = e;
          }
          if (error === undefined) {
            // Success only for a 2xx answer.
            expect(status).toBeGreaterThanOrEqual(200);
            expect(status).toBeLessThan(300);
            return;
          }
          if (!isA2AClientError(error)) throw new Error(`not an A2AClientError: ${String(error)}`, { cause: error });
          expect(error.method).toBe(method);
          if (status >= 300) {
            expect(['http', 'json-rpc']).toContain(error.kind);
            expect(error.status).toBe(status);
          } else {
            expect(['invalid-response', 'json-rpc']).toContain(error.kind);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('stream requests answered with JSON instead of SSE', () => {
  let server: ListeningServer;
  let engine: HttpEngine;
  beforeAll(async () => {
    server = await listenLoopback((req, res) => {
      void serve(req, res);
    });
    engine = ENGINES[0]!.make();
  });
  afterAll(async () => {
    await engine.close();
    await server.close();
  });

  it.each(COMBOS)('%s %s: any JSON body, deeply nested too, is a typed error, never a crash', async (version, bindingName) => {
    const binding = createBinding(version, bindingName);
    const ctx = { engine, url: `${server.url}/a2a`, headers: {}, timeouts: { connectMs: 2_000, readMs: 2_000, streamIdleMs: 2_000 }, limits: DEFAULT_LIMITS };
    const deepResult = (id: Json) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const bodies = fc.oneof(fc.constant(deepResult), malformedBody(version, bindingName === 'JSONRPC' ? 'echo' : undefined));
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        answer = { status: 200, contentType: 'application/json', body };
        let error: unknown;
        try {
          for await (const _batch of binding.stream('subscribeToTask', { id: 't1' }, ctx)) throw new Error('no events expected');
        } catch (e) {
          error = e;
        }
        if (!isA2AClientError(error)) throw new Error(`not an A2AClientError: ${String(error)}`, { cause: error });
        expect(['invalid-response', 'json-rpc']).toContain(error.kind);
      }),
      { numRuns: 40, examples: [[deepResult]] },
    );
  });
});
