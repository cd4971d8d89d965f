import type { JSONWebKeySet } from 'jose';
import type { CallOptions } from '../client/options.js';
import type { EventConverter } from '../convert/converter.js';
import type { A2AClientError } from '../errors/a2a-client-error.js';

/**
 * JWT authentication of deliveries: `Authorization: Bearer <JWT>` signed by the agent, verified with
 * `jose` against a JWK Set.
 */
export interface PushJwtAuth {
  /** The agent's JWK Set: its URL (fetched and cached by `jose`), or the set itself. */
  jwks: URL | string | JSONWebKeySet;
  /** Accepted `aud` value(s). Leave unset only when the agent sends none. */
  audience?: string | string[];
  /** Accepted `iss` value(s). */
  issuer?: string | string[];
  /**
   * Oldest accepted token, by its `iat` (which is then required), in seconds.
   * @default 300
   */
  maxTokenAgeSeconds?: number;
  /** Accepted signing algorithms. @default every asymmetric algorithm `jose` supports for the key */
  algorithms?: string[];
  /**
   * Refuse (401) a JWT without a `taskId` claim. A `taskId` claim, when present, is always checked:
   * a delivery for another task is refused (403), whatever this says.
   * @default false
   */
  requireTaskId?: boolean;
  /**
   * Refuse (401) a JWT without a `jti` claim. A `jti`, when present, is always checked: it carries
   * one delivery for as long as its token is accepted (`exp`, or `iat` + `maxTokenAgeSeconds`); the
   * same delivery again (the agent's retry, same bytes) is a repeat, another delivery under it is
   * refused (401). Remembered per receiver, in memory (see {@link maxRememberedJtis}): a replica of
   * your service does not know the ids another one saw.
   * @default false
   */
  requireJti?: boolean;
  /**
   * JWT ids remembered at most (each only while its token can be accepted). When that many are live,
   * a delivery with a new `jti` is refused with 429 and `Retry-After` (the agent retries it later)
   * rather than forgetting a live id.
   * @default 100000
   */
  maxRememberedJtis?: number;
}

/**
 * Decides whether a delivery is let in, from its method, URL and headers (the body is not there yet:
 * it is read only after a yes). Throwing counts as no.
 */
export type PushAuthFunction = (request: Request) => boolean | Promise<boolean>;

/** What the receiver reports (`onEvent`). Never carries a token or credential. */
export type PushReceiverEvent =
  /** A delivery was refused with `status`; `reason` says why in a few words. */
  | {
      /** The event's kind. */
      type: 'refused';
      /** The HTTP status the delivery was answered with. */
      status: number;
      /** Why, in a few words. */
      reason: string;
      /** The delivery's task, when it was read far enough to know. */
      taskId?: string;
    }
  /** A config `register()` created was deleted when its iteration ended, or the attempt failed. */
  | {
      /** The event's kind. */
      type: 'config-delete';
      /** The task the config was for. */
      taskId: string;
      /** The config's id. */
      configId: string;
      /** Whether the agent deleted it. */
      outcome: 'deleted' | 'failed';
      /** Why the delete failed. */
      error?: A2AClientError;
    }
  /** The Task read after registering (to catch up on what happened before) failed; pushes still flow. */
  | {
      /** The event's kind. */
      type: 'snapshot-failed';
      /** The task. */
      taskId: string;
      /** Why the read failed. */
      error: A2AClientError;
    };

/** Options of {@link pushReceiver}. All optional: `pushReceiver()` is safe as it is. */
export interface PushReceiverOptions {
  /**
   * How a delivery proves it comes from the agent, checked before anything is read:
   * - `'token'`: the per-config token `register()` generated, sent back by the agent as
   *   `Authorization: Bearer <token>` (A2A 1.0.1) or `X-A2A-Notification-Token` (v0.3, and 1.x
   *   agents given a token only). A delivery for a task no live registration holds is refused (401);
   * - a {@link PushJwtAuth}: a JWT verified against the agent's JWK Set;
   * - a {@link PushAuthFunction}: yours.
   * With a JWT or a function, a delivery for a task no iteration is open for gets 404.
   * @default 'token'
   */
  auth?: 'token' | PushJwtAuth | PushAuthFunction;
  /**
   * Largest accepted body, in bytes: a larger `Content-Length` is refused unread, a body without one
   * is cut off there (413).
   * @default 1048576 (1 MiB)
   */
  maxBodyBytes?: number;
  /**
   * Deepest nesting of objects and arrays accepted in a body, counted on its bytes before it is
   * parsed: deeper is refused (400) before anything recursive touches it.
   * @default 64
   */
  maxDepth?: number;
  /**
   * Longest time a body may take to arrive, from the first read, in ms: a body still arriving then is
   * cut off (408, the connection closed). A sender trickling a body holds a socket and a pending
   * handler; a webhook body of at most `maxBodyBytes` from another server arrives well within it.
   * Headers are read by the server before the receiver sees the request: bound them there (see
   * {@link PushReceiver.nodeListener}).
   * @default 5000
   */
  bodyTimeoutMs?: number;
  /**
   * Longest gap between two pieces of a body (and before the first), in ms: a longer one cuts the
   * body off (408, the connection closed).
   * @default 2000
   */
  bodyIdleMs?: number;
  /**
   * Longest time a request's headers may take to arrive, in ms. The receiver sees a request only
   * once its headers are in, so the server bounds them: pass {@link PushReceiver.serverOptions} to
   * `http.createServer` (Node's own default is 60 s), or set it on your proxy.
   * @default 10000
   */
  headersTimeoutMs?: number;
  /**
   * Events one iteration may hold while its reader is behind. One more ends that iteration with an
   * error event (type `overloaded`, code `push_buffer_overflow`) after what it holds; the delivery
   * that did not fit gets 503. A single Task snapshot with more artifacts than this is refused (413).
   * @default 1000
   */
  maxBuffered?: number;
  /** Turns deliveries into events. @default defaultConverter */
  converter?: EventConverter;
  /** Observability: refusals, config deletions. A listener that throws is ignored. */
  onEvent?: (event: PushReceiverEvent) => void;
}

/**
 * What `http.createServer(options, listener)` (or `https`) is given by {@link PushReceiver.serverOptions}:
 * Node's own bounds on what the server reads before the receiver sees a request.
 */
export interface PushServerOptions {
  /** Longest time for a request's headers, in ms (`headersTimeoutMs`). */
  readonly headersTimeout: number;
  /** Longest time for a whole request, in ms: headers + `bodyTimeoutMs` + 1 s (a backstop for the receiver's own deadlines). */
  readonly requestTimeout: number;
  /** How often Node checks those two, in ms: 1000 (Node's default, 30 s, would let a slow sender stay up to 30 s past them). */
  readonly connectionsCheckingInterval: number;
}

/** Options of `receiver.events(taskId, options)`. */
export interface PushEventsOptions {
  /** Ends the iteration (an `aborted` error event) when it fires. */
  signal?: AbortSignal;
  /** Agent name put on the events. @default '' */
  agent?: string;
}

/** Options of `receiver.register(client, taskId, options)`. */
export interface PushRegisterOptions {
  /** The webhook URL the agent posts to: where this receiver's `handleRequest` / `nodeListener` is served. */
  url: string;
  /** Ends the iteration (an `aborted` error event) when it fires; the config is deleted. */
  signal?: AbortSignal;
  /**
   * Where the config carries the token (default authentication only): `'both'` sets
   * `authentication { scheme: 'Bearer', credentials }` (A2A 1.0.1 agents answer with `Authorization`)
   * and `token` (v0.3 agents answer with `X-A2A-Notification-Token`); the others set one of them.
   * @default 'both'
   */
  tokenIn?: 'both' | 'authentication' | 'token';
  /** Per-call options of the create, get and delete calls (timeouts, headers). The `signal` above is not passed to the delete. */
  call?: CallOptions;
}
