/**
 * The scriptable mock agent: card, msw handlers, loopback server, task store, recorded calls, and
 * per-method scenarios (queued `once` / `reply`, default `on`, else built-in behaviour).
 *
 * Scripting `sendMessage` scripts every send: a streaming send (`sendStreamingMessage`, what
 * `client.stream()` and `sendStreamingMessage()` use) follows it too, unless `sendStreamingMessage`
 * has a script of its own. A unary outcome (`replyText`, an error) then answers the stream as SSE.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { ProtocolBinding, ProtocolVersion } from '../src/protocol/model.js';
import { builtins } from './builtins.js';
import { buildCard } from './card.js';
import type { MockCall, MockCore } from './core.js';
import { encoderFor, type WireEncoder } from './encode.js';
import { handleJsonRpc } from './jsonrpc-router.js';
import { serveHandlers, type ListeningServer, type MockListenOptions } from './node-bridge.js';
import { readFacts } from './request.js';
import { respond } from './respond.js';
import { handleRest } from './rest-router.js';
import type { MockMethod, Outcome, Scenario, ScenarioContext } from './scenarios.js';
import { newId } from './steps.js';
import { missingGrpcPeer } from '../src/protocol/grpc/grpc-peers.js';
import { TaskStore } from './task-store.js';
import type { WireObject } from './wire-v1.js';

/** Options of {@link mockAgent}. */
export interface MockAgentOptions {
  /** Agent name, also the msw host: `http://<name>.agents.test`. */
  name: string;
  /** The A2A version the mock speaks and its card declares: `1.0` or `0.3`. */
  version: ProtocolVersion;
  /** The binding it serves: `JSONRPC`, `HTTP+JSON` or `GRPC`. */
  binding: ProtocolBinding;
  /** Base URL for msw (no trailing slash). @default `http://<name>.agents.test` */
  baseUrl?: string;
  /** Advertise and serve streaming. @default true */
  streaming?: boolean;
  /** The card's description. @default `Mock A2A agent <name>` */
  description?: string;
  /**
   * Rewrites the card as served at `/.well-known/agent-card.json` (called per request, with the card
   * built for the current URL): add `securitySchemes`, sign it, break it on purpose.
   */
  card?: (card: WireObject) => WireObject | Promise<WireObject>;
}

/** A running loopback server of a mock agent. */
export interface MockServer extends ListeningServer {
  /**
   * `binding: 'GRPC'` only: the gRPC server's `127.0.0.1:<port>`, the interface URL the card
   * advertises. `url` is then the HTTP server that serves the card (connect to `url`).
   */
  grpcTarget?: string;
}

const GRPC_INSTALL = 'npm install --save-dev @grpc/grpc-js @bufbuild/protobuf';

const SEND: ReadonlySet<MockMethod> = new Set(['sendMessage', 'sendStreamingMessage']);

/** A scriptable fake A2A agent. Build it with {@link mockAgent}. */
export class MockAgent implements MockCore {
  /** The agent's name (see {@link MockAgentOptions.name}). */
  readonly name: string;
  /** The A2A version it speaks. */
  readonly version: ProtocolVersion;
  /** The binding it serves. */
  readonly binding: ProtocolBinding;
  /** Whether it advertises and serves streaming. */
  readonly streaming: boolean;
  /** Tasks the mock created. */
  readonly store = new TaskStore();
  /** Every call received, in order. */
  readonly calls: MockCall[] = [];
  /** msw handlers serving this agent at its base URL. */
  readonly handlers: HttpHandler[];
  readonly #mswBase: string;
  readonly #description: string | undefined;
  readonly #serveCard: ((card: WireObject) => WireObject | Promise<WireObject>) | undefined;
  readonly #encoder: WireEncoder;
  readonly #builtin: Record<MockMethod, Scenario>;
  readonly #defaults = new Map<MockMethod, Scenario>();
  readonly #queues = new Map<MockMethod | 'send', Scenario[]>();
  #listenUrl: string | undefined;
  #grpcTarget: string | undefined;

  /** Same as {@link mockAgent}: a mock with no scripts yet (every method answers its built-in default). */
  constructor(options: MockAgentOptions) {
    this.name = options.name;
    this.version = options.version;
    this.binding = options.binding;
    this.streaming = options.streaming ?? true;
    this.#description = options.description;
    this.#serveCard = options.card;
    this.#mswBase = (options.baseUrl ?? `http://${encodeURIComponent(options.name.toLowerCase())}.agents.test`).replace(/\/+$/, '');
    this.#encoder = encoderFor(this.version, this.binding);
    this.#builtin = builtins({ version: this.version, encoder: this.#encoder, extendedCard: () => ({ ...this.card, description: `${this.name} (extended)` }) });
    const resolver = ({ request }: { request: Request }): Promise<Response> => this.#route(request);
    this.handlers = [http.all(this.#mswBase, resolver), http.all(`${this.#mswBase}/*`, resolver)];
  }

  /** The base URL the card points at: the loopback URL while listening, else the msw base URL. */
  get url(): string {
    return this.#listenUrl ?? this.#mswBase;
  }

  /** The wire card built for this agent (what `/.well-known/agent-card.json` serves, before `options.card`). */
  get card(): WireObject {
    // A gRPC interface URL is `host:port` (A2A 1.0.2); before listen() it names the msw host, which no gRPC channel reaches.
    const baseUrl = this.binding === 'GRPC' ? (this.#grpcTarget ?? `${new URL(this.#mswBase).hostname}:443`) : this.url;
    return buildCard({ name: this.name, version: this.version, binding: this.binding, baseUrl, streaming: this.streaming, ...(this.#description ? { description: this.#description } : {}) });
  }

  /**
   * Sets the default scenario of one or more methods (used when nothing is queued). `sendMessage`
   * covers streaming sends too, unless `sendStreamingMessage` has a default of its own.
   */
  on(methods: MockMethod | readonly MockMethod[], scenario: Scenario): this {
    for (const m of typeof methods === 'string' ? [methods] : methods) this.#defaults.set(m, scenario);
    return this;
  }

  /**
   * Queues scenarios for the next calls of a method, one call each. Scenarios queued for
   * `sendMessage` also serve streaming sends (after those queued for `sendStreamingMessage` and with
   * {@link reply}).
   */
  once(method: MockMethod, ...scenarios: Scenario[]): this {
    this.#queues.set(method, [...(this.#queues.get(method) ?? []), ...scenarios]);
    return this;
  }

  /** Queues scenarios for the next send calls (`sendMessage` or `sendStreamingMessage`), one call each. */
  reply(...scenarios: Scenario[]): this {
    this.#queues.set('send', [...(this.#queues.get('send') ?? []), ...scenarios]);
    return this;
  }

  /** Recorded calls of one method. */
  callsOf(method: MockMethod): MockCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Forgets scripted scenarios and recorded calls (the task store is kept). */
  clear(): void {
    this.#defaults.clear();
    this.#queues.clear();
    this.calls.length = 0;
  }

  /**
   * Serves the same handlers on 127.0.0.1 (ephemeral port); the card then points at it. A
   * `binding: 'GRPC'` mock also starts a real gRPC server on 127.0.0.1 (`grpcTarget`), which its
   * card advertises, and serves only the card over HTTP at `url`. `options.cors`: serve browser pages
   * on other origins too (see {@link MockListenOptions}).
   * @throws Error (`code` `ERR_MODULE_NOT_FOUND`) for a GRPC mock when `@grpc/grpc-js` or
   * `@bufbuild/protobuf` is not installed; rejects when a port cannot be bound.
   */
  async listen(options: MockListenOptions = {}): Promise<MockServer> {
    const grpc = this.binding === 'GRPC' ? await this.#listenGrpc() : undefined;
    let server: ListeningServer;
    try {
      server = await serveHandlers(() => this.handlers, { handlerOrigin: new URL(this.#mswBase).origin, cors: options.cors === true });
    } catch (error: unknown) {
      await grpc?.close();
      throw error;
    }
    const base = new URL(this.#mswBase);
    this.#listenUrl = `${server.url}${base.pathname === '/' ? '' : base.pathname}`;
    this.#grpcTarget = grpc?.target;
    const url = this.#listenUrl;
    return {
      url,
      ...(grpc ? { grpcTarget: grpc.target } : {}),
      close: async () => {
        await Promise.all([server.close(), grpc?.close()]);
        if (this.#listenUrl === url) this.#listenUrl = undefined;
        if (grpc && this.#grpcTarget === grpc.target) this.#grpcTarget = undefined;
      },
    };
  }

  /** Loads the gRPC server (optional peers) and starts it. */
  async #listenGrpc(): Promise<{ target: string; close(): Promise<void> }> {
    const missing = missingGrpcPeer();
    if (missing !== undefined) {
      throw Object.assign(
        new Error(`a2a-resilient/mocks: a mock agent with binding 'GRPC' serves a real gRPC server, which needs the optional peer dependencies @grpc/grpc-js and @bufbuild/protobuf (${missing} is not installed). Install them next to a2a-resilient: \`${GRPC_INSTALL}\`.`),
        { code: 'ERR_MODULE_NOT_FOUND' },
      );
    }
    const { serveGrpc } = await import('./grpc-server.js');
    return serveGrpc({ version: this.version, streaming: this.streaming, encoder: this.#encoder, decide: (call, signal) => this.#decide(call, signal) });
  }

  /** @internal Routers call this; records the call and answers with the picked scenario. */
  async run(call: Omit<MockCall, 'at'>, signal: AbortSignal): Promise<Response> {
    const { outcome, ctx } = await this.#decide(call, signal);
    return respond({ outcome, ctx, encoder: this.#encoder, ...(call.rpcId !== undefined ? { rpcId: call.rpcId } : {}) });
  }

  /** Records the call and runs the picked scenario (a scenario that throws answers −32603). Never rejects. */
  async #decide(call: Omit<MockCall, 'at'>, signal: AbortSignal): Promise<{ outcome: Outcome; ctx: ScenarioContext }> {
    this.calls.push({ ...call, at: Date.now() });
    const facts = readFacts(call.params);
    const ctx: ScenarioContext = {
      method: call.method,
      version: this.version,
      binding: this.binding,
      ids: { taskId: facts.messageTaskId ?? newId('task'), contextId: facts.contextId ?? newId('ctx') },
      text: facts.text,
      ...(facts.taskId !== undefined ? { taskId: facts.taskId } : {}),
      ...(facts.configId !== undefined ? { configId: facts.configId } : {}),
      params: call.params,
      attempt: this.callsOf(call.method).length,
      store: this.store,
      signal,
    };
    let outcome: Outcome;
    try {
      outcome = await this.#pick(call.method)(ctx);
    } catch (error: unknown) {
      outcome = { type: 'rpc-error', code: -32603, message: `mock scenario failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    return { outcome, ctx };
  }

  /**
   * The scenario of one call: queued for the method, then queued for any send (`reply`), then — for
   * a streaming send — queued for `sendMessage`; else the method's default, then (streaming send)
   * the `sendMessage` default; else the built-in behaviour.
   */
  #pick(method: MockMethod): Scenario {
    const own = this.#queues.get(method)?.shift();
    if (own) return own;
    if (SEND.has(method)) {
      const shared = this.#queues.get('send')?.shift() ?? (method === 'sendStreamingMessage' ? this.#queues.get('sendMessage')?.shift() : undefined);
      if (shared) return shared;
    }
    const scripted = this.#defaults.get(method) ?? (method === 'sendStreamingMessage' ? this.#defaults.get('sendMessage') : undefined);
    return scripted ?? this.#builtin[method];
  }

  async #route(request: Request): Promise<Response> {
    const base = new URL(this.#mswBase);
    const url = new URL(request.url);
    const basePath = base.pathname.replace(/\/+$/, '');
    const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) || '/' : url.pathname;
    if (request.method === 'GET' && (path === '/.well-known/agent-card.json' || path === '/.well-known/agent.json')) {
      return HttpResponse.json(this.#serveCard ? await this.#serveCard(this.card) : this.card);
    }
    if (this.binding === 'GRPC') {
      return new HttpResponse('Not Found: a gRPC mock serves its RPCs on the gRPC server that listen() starts', { status: 404, headers: { 'content-type': 'text/plain' } });
    }
    if (this.binding === 'JSONRPC') {
      if (path === '/' && request.method === 'POST') return handleJsonRpc(this, request);
      return new HttpResponse('Not Found', { status: 404, headers: { 'content-type': 'text/plain' } });
    }
    return handleRest(this, request, path);
  }
}

/** Builds a mock agent. Never throws for valid options. */
export function mockAgent(options: MockAgentOptions): MockAgent {
  return new MockAgent(options);
}
