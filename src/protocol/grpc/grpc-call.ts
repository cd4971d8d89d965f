/**
 * One gRPC call on a leased channel, with the HTTP engine's guarantees: the call's scope (one
 * deadline, the caller's signal) cancels it — the agent sees the RST_STREAM — and its phase timers
 * bound connecting (`connectMs`: channel READY), the answer (`readMs`: the unary response, or a
 * stream's first message) and each gap between stream messages (`streamIdleMs`). The gRPC deadline
 * sent with each attempt is the time the call has left, never more.
 */
import type { CallOptions, Client, ClientReadableStream, Metadata, ServiceError } from '@grpc/grpc-js';
import { A2AClientError } from '../../errors/a2a-client-error.js';
import { CallScope } from '../../transport/call-scope.js';
import { requestDeadlineError } from '../../transport/scope-errors.js';
import type { Timeouts } from '../../transport/settings.js';
import type { GrpcMethodCodec } from './grpc-codec.js';
import { channelReady } from './grpc-ready.js';
import type { GrpcRuntime } from './grpc-runtime.js';
import { grpcStatusError } from './grpc-status.js';

/** What one call needs besides its request. */
export interface GrpcCallInit {
  rt: GrpcRuntime;
  client: Client;
  /** `host:port`, for messages. */
  target: string;
  /** The channel uses TLS. */
  secure?: boolean;
  method: GrpcMethodCodec;
  /** The A2A method, on errors. */
  name: string;
  metadata: Metadata;
  timeouts: Pick<Timeouts, 'connectMs' | 'readMs' | 'streamIdleMs'>;
  /** The attempt's scope (from the pipeline). */
  scope?: CallScope | undefined;
}

const toBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
const asBytes = (b: Buffer): Buffer => b;

function textOf(md: Metadata): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(md.getMap())) if (typeof value === 'string') out[key] = value;
  return out;
}

/** grpc-js's words for a call it failed because no connection could be made: nothing was sent. */
const NOT_CONNECTED = /^No connection established\. Last error: (.*?)(?: \(\d{4}-\d\d-\d\dT[^)]*\))?\.?(?: Resolution note:.*)?$/s;
/** Node / OpenSSL words of a certificate or TLS handshake failure. */
const TLS_FAILURE = /certificate|\bSSL\b|\bTLS|alert|self[- ]signed|altnames|CERT_|ERR_TLS/i;

/** A call grpc-js failed before sending it (no connection): `connection`, before send, reason `tls` for a certificate failure. */
function notConnected(init: GrpcCallInit, details: string): A2AClientError | undefined {
  const last = NOT_CONNECTED.exec(details)?.[1];
  if (last === undefined) return undefined;
  const tls = TLS_FAILURE.test(last);
  return new A2AClientError({
    kind: 'connection',
    reason: tls ? 'tls' : 'refused',
    message: `gRPC channel to ${init.target} could not connect${tls ? ' (TLS)' : ''}: ${last.replace(/\s+/g, ' ').slice(0, 300)}`,
    method: init.name,
    phase: 'before-send',
  });
}

/** A grpc-js error as the typed error; a DEADLINE_EXCEEDED grpc-js raised is the call's deadline. */
function failure(init: GrpcCallInit, scope: CallScope, error: ServiceError, headersReceived: boolean, opened: number): A2AClientError {
  const trailers = textOf(error.metadata);
  if (error.code === 4 && Object.keys(trailers).length === 0) return requestDeadlineError(performance.now() - opened, 'after-send');
  if (error.code === 14 && !headersReceived && Object.keys(trailers).length === 0) {
    const local = notConnected(init, error.details);
    if (local !== undefined) return local;
  }
  const bin = error.metadata.get('grpc-status-details-bin')[0];
  const statusDetails = bin instanceof Buffer ? init.rt.decodeStatusDetails(bin) : undefined;
  return grpcStatusError({ code: error.code, details: error.details, trailers, statusDetails, headersReceived }, init.name);
}

function isServiceError(e: unknown): e is ServiceError {
  return e instanceof Error && typeof Reflect.get(e, 'code') === 'number' && Reflect.get(e, 'metadata') !== undefined;
}

/** What a call does when its scope fails (deadline, abort, a phase timer): set once the call exists. */
interface OnFail {
  run?: () => void;
}

/** A call's scope and options, once its channel is READY. */
interface Opened {
  scope: CallScope;
  options: CallOptions;
  opened: number;
  onFail: OnFail;
}

/**
 * Opens the call's scope and waits for the channel (no wait, and no promise, when it is READY). The
 * scope cancels the call through `onFail` (no AbortController per call). The gRPC deadline is the
 * time the call has left; none when the call has no deadline (grpc-js then arms no timer of its own).
 */
function open(init: GrpcCallInit): Opened | Promise<Opened> {
  const onFail: OnFail = {};
  const scope = new CallScope({ parent: init.scope, request: true, onFail: () => onFail.run?.() });
  const opened = performance.now();
  const ready = channelReady(init.client.getChannel(), scope, init.target, init.timeouts.connectMs, init.secure === true);
  if (ready === undefined) return started(init, scope, opened, onFail);
  return ready.then(
    () => started(init, scope, opened, onFail),
    (error: unknown) => {
      scope.dispose();
      throw error;
    },
  );
}

/** The channel is READY: the request goes out now, its answer bounded by `readMs` and the time left. */
function started(init: GrpcCallInit, scope: CallScope, opened: number, onFail: OnFail): Opened {
  scope.sent = true;
  scope.arm('read-timeout', init.timeouts.readMs);
  const left = scope.timeLeft();
  return { scope, options: Number.isFinite(left) ? { deadline: new Date(Date.now() + Math.max(1, Math.ceil(left))) } : {}, opened, onFail };
}

/**
 * One unary call: the response message's bytes.
 * @throws A2AClientError — transport kinds, `http` (a status from the agent), `connection`.
 */
export async function grpcUnary(init: GrpcCallInit, request: Uint8Array): Promise<Uint8Array> {
  const at = open(init);
  const { scope, options, opened, onFail } = at instanceof Promise ? await at : at;
  try {
    let headersReceived = false;
    const answer = new Promise<Uint8Array>((resolve, reject) => {
      const call = init.client.makeUnaryRequest(init.method.path, toBuffer, asBytes, request, init.metadata, options, (error, value) => {
        if (error) reject(failure(init, scope, error, headersReceived, opened));
        else if (value === undefined) reject(new A2AClientError({ kind: 'invalid-response', message: 'Invalid response: gRPC call ended without a message', field: 'message', phase: 'after-send' }));
        else resolve(value);
      });
      call.on('metadata', () => {
        headersReceived = true;
      });
      onFail.run = () => call.cancel();
      // Failed while the call was being made: cancel it now.
      if (scope.aborted) call.cancel();
    });
    return await scope.race(answer);
  } finally {
    scope.dispose();
  }
}

/**
 * One server-streaming call: the messages' bytes, in batches (never empty). grpc-js hands a message
 * over per tick, so the reader is woken once per turn of the event loop (`setImmediate`, right after
 * the I/O it is in) with every message that turn brought: one trip through the layers above for all
 * the messages of a network read instead of one each (on a stream of small messages, ~19 per batch and
 * a quarter less CPU per event), and no message waits for a timer. Stopping early cancels the call.
 * @throws A2AClientError as {@link grpcUnary}, after the messages before the failure.
 */
export async function* grpcStream(init: GrpcCallInit, request: Uint8Array): AsyncGenerator<Uint8Array[]> {
  const at = open(init);
  const { scope, options, opened, onFail } = at instanceof Promise ? await at : at;
  const queue: Uint8Array[] = [];
  let ended = false;
  let error: unknown;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  /** The wake-up of the reader at the end of this turn of the event loop, when one is due. */
  let turnEnd: ReturnType<typeof setImmediate> | undefined;
  const notifyAtTurnEnd = (): void => {
    turnEnd = undefined;
    notify();
  };
  let headersReceived = false;
  let call: ClientReadableStream<Uint8Array> | undefined;
  try {
    call = init.client.makeServerStreamRequest(init.method.path, toBuffer, asBytes, request, init.metadata, options);
    const c = call;
    c.on('metadata', () => {
      headersReceived = true;
    });
    c.on('data', (chunk: Uint8Array) => {
      if (queue.length === 0) scope.arm('idle-timeout', init.timeouts.streamIdleMs);
      else scope.touch();
      queue.push(chunk);
      turnEnd ??= setImmediate(notifyAtTurnEnd);
    });
    c.on('error', (e: unknown) => {
      error ??= isServiceError(e) ? failure(init, scope, e, headersReceived, opened) : e;
      ended = true;
      notify();
    });
    c.on('end', () => {
      ended = true;
      notify();
    });
    onFail.run = () => {
      error ??= scope.failure;
      ended = true;
      c.cancel();
      notify();
    };
    // Failed while the call was being made: end it now.
    if (scope.aborted) onFail.run();
    for (;;) {
      if (queue.length > 0) {
        yield queue.splice(0, queue.length);
        continue;
      }
      if (ended) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    if (error !== undefined) throw scope.failure ?? error;
  } finally {
    // A `break` (or any early exit) cancels the call so the agent stops working on it.
    if (!ended) call?.cancel();
    if (turnEnd !== undefined) clearImmediate(turnEnd);
    scope.dispose();
  }
}
