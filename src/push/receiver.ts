import type { IncomingMessage, ServerResponse } from 'node:http';
import type { A2AClient } from '../client/a2a-client.js';
import type { AgentEvent } from '../convert/agent-event.js';
import type { EventConverter } from '../convert/converter.js';
import { defaultConverter } from '../convert/default-converter.js';
import { errorEvent } from '../convert/safe-convert.js';
import { A2AClientError } from '../errors/a2a-client-error.js';
import type { AgentCard } from '../protocol/model.js';
import { createAuthenticator, type Authenticator } from './authenticate.js';
import { decodeDelivery, taskIdOf } from './decode-delivery.js';
import { createNodeListener } from './node-listener.js';
import type { PushEventsOptions, PushReceiverEvent, PushReceiverOptions, PushRegisterOptions, PushServerOptions } from './options.js';
import { readBounded, type BodyTimeouts } from './read-body.js';
import { isJsonContentType, nestsDeeperThan } from './admit.js';
import { JtiMemory } from './jti-memory.js';
import { registerTask } from './register.js';
import { PushStop, PushSubscription, type Delivered } from './subscription.js';
import { TokenRegistry } from './tokens.js';
import { ignoreLate } from '../util/ignore-late.js';

const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_MAX_BUFFERED = 1000;
const DEFAULT_MAX_DEPTH = 64;
const DEFAULT_BODY_TIMEOUT_MS = 5000;
const DEFAULT_BODY_IDLE_MS = 2000;
const DEFAULT_MAX_JTIS = 100_000;
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Slack between the receiver's own body deadline and the server's whole-request one. */
const REQUEST_TIMEOUT_SLACK_MS = 1000;
/** Events a Task snapshot yields besides one per artifact (its status, a message). */
const SNAPSHOT_OVERHEAD = 2;

/** A card for iterations opened without a client: the default converter never reads it. */
const NO_CARD: AgentCard = { name: '', interfaces: [], capabilities: {}, skills: [], raw: undefined };

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`pushReceiver: ${name} must be a positive integer`);
  return value;
}

function answer(status: number, body?: object, headers: Record<string, string> = {}): Response {
  if (body === undefined) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

async function digestOf(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let out = '';
  for (const b of hash) out += b.toString(16).padStart(2, '0');
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** An aborted iteration's end: kind `aborted`, the reason as `cause`. */
export function abortedStop(message: string, cause?: unknown): PushStop {
  return new PushStop((agent) => errorEvent(new A2AClientError({ kind: 'aborted', message, cause, agent }), agent));
}

/**
 * A webhook for A2A push notifications (see {@link pushReceiver}). Deliveries are authenticated from
 * their headers, checked to be JSON, read within a size cap and a deadline, bounded in depth,
 * validated with the protocol decoders of both versions, and reconciled per task into
 * `events(taskId)` iterations. A delivery is taken exactly once, or refused without being remembered.
 */
export class PushReceiver {
  /**
   * `(req, res)` for `node:http` / express: a thin adapter over {@link handleRequest}, with its body
   * deadlines (`bodyTimeoutMs`, `bodyIdleMs`: 408 and the connection closed). Mount it before any body
   * parser. Headers arrive before it is called: bound them with {@link serverOptions}.
   * @example
   * http.createServer(receiver.serverOptions, receiver.nodeListener).listen(8080);
   */
  readonly nodeListener: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * Options for `http.createServer(options, listener)` / `https.createServer` that bound what the
   * server reads before the receiver sees a request: `headersTimeout` (`headersTimeoutMs`) and
   * `requestTimeout` (headers + `bodyTimeoutMs` + 1 s: the server's own backstop for the whole request),
   * checked every second (`connectionsCheckingInterval`; Node's default, 30 s, would let a slow sender
   * hold a socket up to 30 s past them).
   */
  readonly serverOptions: PushServerOptions;
  readonly #tokens = new TokenRegistry();
  readonly #auth: Authenticator;
  readonly #tokenMode: boolean;
  readonly #maxBody: number;
  readonly #maxBuffered: number;
  readonly #maxDepth: number;
  readonly #bodyTimeouts: BodyTimeouts;
  readonly #jtis: JtiMemory | undefined;
  readonly #converter: EventConverter;
  readonly #onEvent: ((event: PushReceiverEvent) => void) | undefined;
  readonly #tasks = new Map<string, Set<PushSubscription>>();
  readonly #cleanups = new Set<() => void>();
  readonly #pending = new Set<Promise<void>>();
  #closed = false;

  /** Same as {@link pushReceiver}; throws `TypeError` for an invalid option. */
  constructor(options: PushReceiverOptions = {}) {
    this.#auth = createAuthenticator(options.auth, this.#tokens);
    this.#tokenMode = options.auth === undefined || options.auth === 'token';
    this.#maxBody = positive('maxBodyBytes', options.maxBodyBytes, DEFAULT_MAX_BODY);
    this.#maxBuffered = positive('maxBuffered', options.maxBuffered, DEFAULT_MAX_BUFFERED);
    this.#maxDepth = positive('maxDepth', options.maxDepth, DEFAULT_MAX_DEPTH);
    this.#bodyTimeouts = {
      totalMs: positive('bodyTimeoutMs', options.bodyTimeoutMs, DEFAULT_BODY_TIMEOUT_MS),
      idleMs: positive('bodyIdleMs', options.bodyIdleMs, DEFAULT_BODY_IDLE_MS),
    };
    const headersTimeout = positive('headersTimeoutMs', options.headersTimeoutMs, DEFAULT_HEADERS_TIMEOUT_MS);
    this.serverOptions = { headersTimeout, requestTimeout: headersTimeout + this.#bodyTimeouts.totalMs + REQUEST_TIMEOUT_SLACK_MS, connectionsCheckingInterval: 1000 };
    const jwt = typeof options.auth === 'object' && options.auth !== null ? options.auth : undefined;
    this.#jtis = jwt === undefined ? undefined : new JtiMemory(positive('maxRememberedJtis', jwt.maxRememberedJtis, DEFAULT_MAX_JTIS));
    this.#converter = options.converter ?? defaultConverter;
    this.#onEvent = options.onEvent;
    this.nodeListener = createNodeListener((request) => this.handleRequest(request));
  }

  /**
   * Handles one delivery (web-standard: any runtime, any framework). Answers 204 when it was taken
   * (also for a repeat or an older delivery, which are dropped: the agent need not retry them);
   * otherwise it was not taken, and is not remembered as seen (the agent's retry is new again):
   * 405 for a method other than POST; 401 (with `WWW-Authenticate: Bearer`) when its credentials are
   * refused — before the body is read — or a JWT's `jti` already carried another delivery; 415 for a
   * content type other than `application/json` / `application/a2a+json`; 408 for a body slower than
   * `bodyTimeoutMs` / `bodyIdleMs`; 413 over `maxBodyBytes` (or a Task snapshot with more artifacts
   * than `maxBuffered`); 400 for a body that is not JSON, nests deeper than `maxDepth`, or is not an
   * A2A payload (naming the field); 403 when a valid token is for another task; 404 when no
   * iteration is open for its task; 429 when a JWT's id cannot be remembered yet; 503 when its
   * iteration's buffer overflowed (its reader is behind). Never throws, never answers another 5xx;
   * no answer carries a credential.
   */
  async handleRequest(request: Request): Promise<Response> {
    try {
      return await this.#handle(request);
    } catch (error) {
      // A bug, not the sender's fault; still a 4xx, so the sender neither retries it as a repeat nor counts it as taken.
      const name = error instanceof Error ? error.name : typeof error;
      return this.#refuse(400, `the delivery could not be processed (${name})`);
    }
  }

  async #handle(request: Request): Promise<Response> {
    if (request.method !== 'POST') return this.#refuse(405, 'only POST is accepted', undefined, { allow: 'POST' });
    const verdict = await this.#auth(request);
    if (!verdict.ok) {
      request.body?.cancel().catch(ignoreLate);
      return this.#refuse(401, verdict.reason, undefined, { 'www-authenticate': 'Bearer' });
    }
    if (!isJsonContentType(request.headers.get('content-type'))) {
      request.body?.cancel().catch(ignoreLate);
      return this.#refuse(415, 'the content type is not application/json or application/a2a+json', verdict.taskId, { accept: 'application/json, application/a2a+json' });
    }
    const body = await readBounded(request, this.#maxBody, this.#bodyTimeouts);
    if (!body.ok) return this.#refuse(body.status, body.reason, verdict.taskId);
    if (nestsDeeperThan(body.bytes, this.#maxDepth)) return this.#refuse(400, `the body nests deeper than ${this.#maxDepth}`, verdict.taskId);
    let json: unknown;
    try {
      json = JSON.parse(utf8.decode(body.bytes));
    } catch (error) {
      return this.#refuse(400, `the body is not JSON (${error instanceof Error ? error.name : 'error'})`, verdict.taskId);
    }
    let event;
    try {
      event = decodeDelivery(json);
    } catch (error) {
      const field = error instanceof A2AClientError ? (error.field ?? 'body') : 'body';
      return this.#refuse(400, `not an A2A push payload (${field})`, verdict.taskId, {}, { field });
    }
    const taskId = taskIdOf(event) ?? verdict.taskId;
    if (taskId === undefined) return this.#refuse(400, 'the payload names no task');
    if (verdict.taskId !== undefined && taskId !== verdict.taskId) return this.#refuse(403, 'the token is for another task', verdict.taskId);
    if (event.kind === 'task' && (event.artifacts?.length ?? 0) + SNAPSHOT_OVERHEAD > this.#maxBuffered) {
      return this.#refuse(413, `the Task snapshot has more artifacts than maxBuffered (${this.#maxBuffered})`, taskId);
    }
    const subscriptions = this.#tasks.get(taskId);
    if (subscriptions === undefined || subscriptions.size === 0) return this.#refuse(404, 'no iteration is open for this task', taskId);
    const digest = await digestOf(body.bytes);
    const jti = verdict.jti;
    if (jti !== undefined && this.#jtis !== undefined) {
      const claim = this.#jtis.claim(jti.id, jti.until, digest);
      if (claim === 'reused') return this.#refuse(401, 'JWT refused (its jti carried another delivery)', taskId, { 'www-authenticate': 'Bearer' });
      if (claim === 'full') return this.#refuse(429, 'too many live JWT ids to remember', taskId, { 'retry-after': '10' });
    }
    const outcomes: Delivered[] = [];
    for (const subscription of subscriptions) outcomes.push(subscription.deliver(event, digest));
    if (outcomes.some((o) => o === 'accepted' || o === 'repeat')) return answer(204);
    if (jti !== undefined) this.#jtis?.release(jti.id, digest);
    if (outcomes.includes('overflow')) return this.#refuse(503, 'the iteration’s buffer is full', taskId);
    return this.#refuse(404, 'no iteration is open for this task', taskId);
  }

  #refuse(status: number, reason: string, taskId?: string, headers: Record<string, string> = {}, extra: object = {}): Response {
    this.#emit(taskId === undefined ? { type: 'refused', status, reason } : { type: 'refused', status, reason, taskId });
    return answer(status, { error: reason, ...extra }, headers);
  }

  #emit(event: PushReceiverEvent): void {
    try {
      this.#onEvent?.(event);
    } catch (error) {
      // A listener's failure must not change how a delivery is answered; it is dropped on purpose.
      void error;
    }
  }

  /**
   * The pushes of task `taskId` as events, converted as `stream()` converts them: each chunk once and
   * in order; ends at a terminal or interrupted state (like `stream()`), at `close()` or `signal`
   * (an `aborted` error event), or with an `overloaded` error event when more than `maxBuffered`
   * events wait unread. Deliveries are taken from this call on, not from the first `next()`.
   * With the default token authentication, deliveries need a token from `register()`: use this
   * with a JWT or function `auth` for configs you created yourself.
   * @throws A2AClientError kind `aborted` when the receiver is closed.
   */
  events(taskId: string, options: PushEventsOptions = {}): AsyncIterable<AgentEvent> {
    return this.#open(taskId, options.agent ?? '', NO_CARD, options.signal, () => undefined).events();
  }

  /**
   * Registers this receiver for task `taskId` at the agent behind `client`
   * (`createTaskPushNotificationConfig` at `options.url`, with a fresh random token unless `auth` is
   * a JWT or function), reads the task once (what happened before the config existed) and returns
   * its events (see {@link events}). When the iteration ends — completion, break, error, `close()` —
   * the config is deleted, best effort (`onEvent` `config-delete` says how it went). A failed
   * registration is the iteration's one error event.
   * @throws A2AClientError kind `aborted` when the receiver is closed.
   */
  register(client: A2AClient, taskId: string, options: PushRegisterOptions): AsyncIterable<AgentEvent> {
    const token = this.#tokenMode ? this.#tokens.issue(taskId) : undefined;
    const registration = registerTask({ client, taskId, options, token, emit: (e) => this.#emit(e), track: (p) => this.#track(p) });
    const subscription = this.#open(taskId, client.name, client.card, options.signal, () => {
      if (token !== undefined) this.#tokens.revoke(token);
      registration.end();
    });
    registration.start(subscription);
    return subscription.events();
  }

  /** Ends every iteration (an `aborted` error event after what each holds) and deletes the configs `register()` created; resolves when those deletions settled. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const subscriptions of this.#tasks.values()) for (const s of subscriptions) s.stop(abortedStop('the push receiver was closed'));
    for (const cleanup of [...this.#cleanups]) cleanup();
    this.#tokens.clear();
    await Promise.all([...this.#pending]);
  }

  #track(promise: Promise<void>): void {
    this.#pending.add(promise);
    const settled = (): void => {
      this.#pending.delete(promise);
    };
    promise.then(settled, settled);
  }

  #open(taskId: string, agent: string, card: AgentCard, signal: AbortSignal | undefined, onEnd: () => void): PushSubscription {
    if (this.#closed) throw new A2AClientError({ kind: 'aborted', message: 'the push receiver is closed', agent });
    let done = false;
    const cleanup = (): void => {
      if (done) return;
      done = true;
      this.#cleanups.delete(cleanup);
      signal?.removeEventListener('abort', onAbort);
      const set = this.#tasks.get(taskId);
      set?.delete(subscription);
      if (set?.size === 0) this.#tasks.delete(taskId);
      onEnd();
    };
    const subscription = new PushSubscription({ taskId, agent, card, converter: this.#converter, maxBuffered: this.#maxBuffered, onEnd: cleanup });
    const onAbort = (): void => {
      subscription.stop(abortedStop('the iteration was aborted', signal?.reason));
      cleanup();
    };
    this.#cleanups.add(cleanup);
    const set = this.#tasks.get(taskId) ?? new Set<PushSubscription>();
    set.add(subscription);
    this.#tasks.set(taskId, set);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    return subscription;
  }
}
