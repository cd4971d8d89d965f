/**
 * Shared set-up of the client specification tests: the two ways every behaviour runs (msw + the
 * fetch engine, and a real loopback server + the default undici engine), the four protocol combos,
 * unique agent names, and small raw HTTP endpoints (msw handler or node:http server) that count
 * their requests. Every server started here is closed after each test.
 */
import { http, HttpResponse } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { z } from 'zod';
import type { ClientOptions } from '../../src/index.js';
import type { MockAgent, MockCall } from '../../mocks/index.js';
import { listenLoopback, type ListeningServer } from '../../mocks/node-bridge.js';
import type { ProtocolBinding, ProtocolVersion } from '../../src/protocol/model.js';

/** How a test reaches its agent (`loopback+grpc`: a GRPC mock's gRPC server, its card over HTTP). */
export type Way = 'msw+fetch' | 'loopback+undici' | 'loopback+grpc';

/** Both ways, for `describe.each`. */
export const WAYS: readonly Way[] = ['msw+fetch', 'loopback+undici'];

/** The four protocol version × binding combos. */
export const COMBOS: ReadonlyArray<readonly [ProtocolVersion, ProtocolBinding]> = [
  ['1.0', 'JSONRPC'],
  ['1.0', 'HTTP+JSON'],
  ['0.3', 'JSONRPC'],
  ['0.3', 'HTTP+JSON'],
];

/** The gRPC binding's combos: mocks serve them on a real loopback gRPC server only (no msw). */
export const GRPC_COMBOS: ReadonlyArray<readonly [ProtocolVersion, ProtocolBinding]> = [
  ['1.0', 'GRPC'],
  ['0.3', 'GRPC'],
];

/** Every combo a mock agent serves on a loopback server: the HTTP ones and gRPC. */
export const LOOPBACK_COMBOS: ReadonlyArray<readonly [ProtocolVersion, ProtocolBinding]> = [...COMBOS, ...GRPC_COMBOS];

/** Every way × combo, for `describe.each`: both HTTP ways × the HTTP combos, and the gRPC combos on loopback. */
export const WAY_COMBOS: ReadonlyArray<readonly [Way, ProtocolVersion, ProtocolBinding]> = [
  ...WAYS.flatMap((w) => COMBOS.map(([v, b]) => [w, v, b] as const)),
  ...GRPC_COMBOS.map(([v, b]) => ['loopback+grpc', v, b] as const),
];

let counter = 0;
/** A name no other test uses (also a valid host label: the msw host is `<name>.agents.test`). */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}`.toLowerCase().replace(/[^a-z0-9-]/g, '');
}

/** What a test needs to reach one server the chosen way. */
export interface Served {
  /** The base URL to connect to. */
  url: string;
  /** The interface URL the agent's card advertises: `url`, or a GRPC mock's `127.0.0.1:<port>`. */
  interfaceUrl: string;
  /** Client options selecting the engine of the way (`fetch: 'global'` for msw). */
  options: ClientOptions;
}

/** A request as a raw endpoint sees it. */
export interface RawRequest {
  method: string;
  path: string;
  /** Lower-cased names. */
  headers: Record<string, string>;
}

/** A raw endpoint's answer. */
export interface RawResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** A raw endpoint: a function of the request, plus every request it saw. */
export type RawHandler = (req: RawRequest) => RawResponse;

/**
 * Registers the per-file msw server (only unknown hosts are refused; 127.0.0.1 passes through) and
 * closes every server a test started. Call once at the top of a test file.
 */
export function useHarness(): Harness {
  const msw = setupServer();
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(() => {
    msw.listen({
      onUnhandledRequest: (request, print) => {
        if (new URL(request.url).hostname !== '127.0.0.1') print.error();
      },
    });
  });
  afterEach(async () => {
    msw.resetHandlers();
    await Promise.all(cleanups.splice(0).map((c) => c()));
  });
  afterAll(() => {
    msw.close();
  });
  return new Harness(msw, cleanups);
}

/** Starts agents and raw endpoints the chosen way. */
export class Harness {
  readonly #msw: SetupServer;
  readonly #cleanups: Array<() => Promise<void>>;

  constructor(msw: SetupServer, cleanups: Array<() => Promise<void>>) {
    this.#msw = msw;
    this.#cleanups = cleanups;
  }

  /** Runs `fn` after this test (before servers close), e.g. `client.close()`. */
  defer(fn: () => Promise<void>): void {
    this.#cleanups.unshift(fn);
  }

  /** Serves a mock agent: msw handlers (fetch engine) or its loopback server (undici engine; a GRPC mock's gRPC server). */
  async agent(way: Way, agent: MockAgent): Promise<Served> {
    if (way === 'msw+fetch') {
      this.#msw.use(...agent.handlers);
      return { url: agent.url, interfaceUrl: agent.url, options: { fetch: 'global' } };
    }
    const server = await agent.listen();
    this.#cleanups.push(server.close);
    return { url: server.url, interfaceUrl: server.grpcTarget ?? server.url, options: {} };
  }

  /** Serves a raw handler at a fresh msw host or on a fresh 127.0.0.1 port. */
  async raw(way: Way, handler: RawHandler): Promise<Served> {
    if (way === 'msw+fetch') {
      const base = `http://${uniqueName('raw')}.agents.test`;
      this.#msw.use(
        http.all(`${base}/*`, ({ request }) => {
          const url = new URL(request.url);
          const headers: Record<string, string> = {};
          request.headers.forEach((v, k) => {
            headers[k] = v;
          });
          const res = handler({ method: request.method, path: url.pathname, headers });
          return new HttpResponse(res.body ?? null, { status: res.status, headers: res.headers ?? {} });
        }),
      );
      return { url: base, interfaceUrl: base, options: { fetch: 'global' } };
    }
    const server = await listenRaw(handler);
    this.#cleanups.push(server.close);
    return { url: server.url, interfaceUrl: server.url, options: {} };
  }
}

function listenRaw(handler: RawHandler): Promise<ListeningServer> {
  return listenLoopback((req, res) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const out = handler({ method: req.method ?? 'GET', path: new URL(req.url ?? '/', 'http://x').pathname, headers });
    res.writeHead(out.status, out.headers ?? {});
    res.end(out.body);
  });
}

/** Collects an async iterable. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The rejection of a promise; fails the test when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (error: unknown) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** The error an async iterable ends with; fails the test when it completes. */
export async function iterationError(it: AsyncIterable<unknown>): Promise<unknown> {
  return rejection(collect(it));
}

/** Strips `raw` (the wire object) recursively, to compare normalised objects exactly. */
export function withoutRaw(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRaw);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== 'raw') out[k] = withoutRaw(v);
  return out;
}

const WirePart = z.looseObject({ text: z.string().optional() });
const WireMessage = z.looseObject({
  messageId: z.string(),
  role: z.string(),
  parts: z.array(WirePart).optional(),
  content: z.array(WirePart).optional(),
  contextId: z.string().optional(),
  taskId: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
const WireSend = z.looseObject({ message: WireMessage.optional(), request: WireMessage.optional() });

/** What a mock received as the message of a send, in version-neutral terms (parsed with zod). */
export interface ReceivedMessage {
  messageId: string;
  /** `user` for `user` / `ROLE_USER`. */
  role: string;
  text: string;
  contextId?: string;
  taskId?: string;
  metadata?: Record<string, unknown>;
}

/** The message of a recorded send call. Throws when the call carried none. */
export function receivedMessage(call: MockCall | undefined): ReceivedMessage {
  const params = WireSend.parse(call?.params);
  const m = params.message ?? params.request;
  if (!m) throw new Error('the call carried no message');
  return {
    messageId: m.messageId,
    role: m.role === 'ROLE_USER' ? 'user' : m.role === 'ROLE_AGENT' ? 'agent' : m.role,
    text: (m.parts ?? m.content ?? []).map((p) => p.text ?? '').join(''),
    ...(m.contextId !== undefined ? { contextId: m.contextId } : {}),
    ...(m.taskId !== undefined ? { taskId: m.taskId } : {}),
    ...(m.metadata !== undefined ? { metadata: m.metadata } : {}),
  };
}

/** A UUID (any version), as generated for a missing `messageId`. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A batch source that records how it is used. */
export function batchSource<T>(batches: T[][], failAfter?: Error) {
  const log = { pulled: 0, closed: false };
  async function* gen(): AsyncGenerator<T[]> {
    try {
      for (const b of batches) {
        log.pulled++;
        yield b;
      }
      if (failAfter) throw failAfter;
    } finally {
      log.closed = true;
    }
  }
  return { iterable: gen(), log };
}
