import type { Dispatcher } from 'undici';
import type { A2AClientError } from '../errors/a2a-client-error.js';
import { PushSource } from './body-source.js';
import type { EngineRequest, EngineResponse } from './engine.js';
import { errorCodes, normalizeTransportError } from './normalize-error.js';
import { ProxyRefusal } from './proxy-refusal.js';
import { StreamedResponse } from './streamed-response.js';
import { CallScope } from './call-scope.js';
import { decodeContent } from './content-decoding.js';
import { isSseType } from '../util/media-type.js';

/** Lower-cased header names (undici's parser already lower-cases them); repeated headers joined with `, `. */
function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in raw) {
    const value = raw[name];
    if (value !== undefined) out[name] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}

/**
 * One request on an undici dispatcher, as its dispatch handler: the {@link CallScope} owns the timers
 * (connect until a socket is handed over, then read, then the body reader's read or idle timer), the
 * body is pushed into a {@link PushSource} with backpressure (and read through its `Content-Encoding`,
 * see {@link decodeContent}), and every failure settles exactly once.
 * Resolves {@link response} when the headers arrive.
 */
export class UndiciExchange implements Dispatcher.DispatchHandler {
  /** Settles with the response (at its headers) or the first failure. */
  readonly response: Promise<EngineResponse>;
  readonly #req: EngineRequest;
  readonly #scope: CallScope;
  readonly #onAbandon: () => void;
  readonly #proxy: string | undefined;
  #resolve: (res: EngineResponse) => void = () => undefined;
  #reject: (error: A2AClientError) => void = () => undefined;
  #controller: Dispatcher.DispatchController | undefined;
  #body: PushSource | undefined;
  #settled = false;

  /**
   * `onAbandon`: called when the request gives up before it got a socket (to tear the connection
   * attempt down). `proxy`: the proxy http agents are reached through with absolute-form requests
   * (named without credentials), if any.
   */
  constructor(req: EngineRequest, onAbandon: () => void, proxy?: string) {
    this.#req = req;
    this.#onAbandon = onAbandon;
    this.#proxy = proxy;
    this.response = new Promise<EngineResponse>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.#scope = new CallScope({ parent: req.scope, request: true, onFail: (error) => this.#onScopeFail(error) });
    if (this.#scope.failure !== undefined) this.#settle(this.#scope.failure);
    else this.#scope.arm('connect-timeout', req.timeouts.connectMs);
  }

  /** True when the scope already failed (deadline passed, signal aborted): nothing must be sent. */
  get failedEarly(): boolean {
    return this.#scope.failure !== undefined;
  }

  /** The request could not be handed to the dispatcher (invalid options). */
  fail(error: unknown): void {
    this.#settle(this.#scope.failure ?? normalizeTransportError(error, false));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    const failure = this.#scope.failure;
    if (failure !== undefined) {
      controller.abort(failure);
      return;
    }
    this.#scope.sent = true;
    this.#scope.arm('read-timeout', this.#req.timeouts.readMs);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    if (this.#settled) {
      controller.abort(this.#scope.failure ?? new Error('late response'));
      return;
    }
    this.#scope.disarm();
    const flat = flattenHeaders(headers);
    const body = new PushSource(controller, isSseType(flat));
    this.#body = body;
    this.#settled = true;
    // Decoded whether or not the request asked for compression: a gateway may compress anyway.
    const source = decodeContent(body, flat['content-encoding']);
    this.#resolve(new StreamedResponse({ status: statusCode, headers: flat, source, scope: this.#scope, request: this.#req }));
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#body?.push(chunk);
  }

  onResponseEnd(): void {
    this.#body?.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    // undici's forward-proxy wrapper turns the proxy's 407 into an InvalidArgumentError once the
    // request is under way (its status only in the message): after the request started, that error can
    // only be the proxy's refusal. (407 is a proxy's answer by definition, RFC 9110 §15.5.8.)
    if (this.#proxy !== undefined && this.#scope.sent && this.#body === undefined && errorCodes(error).includes('UND_ERR_INVALID_ARG')) {
      error = new ProxyRefusal(407, this.#proxy);
    }
    const failure = this.#scope.failure ?? normalizeTransportError(error, this.#scope.sent || this.#body !== undefined);
    if (this.#body !== undefined) this.#body.fail(failure, false);
    else this.#settle(failure);
  }

  #onScopeFail(error: A2AClientError): void {
    if (this.#body !== undefined) {
      this.#body.fail(error, true);
      this.#controller?.abort(error);
      return;
    }
    this.#settle(error);
    if (this.#controller !== undefined) this.#controller.abort(error);
    // Still connecting or queued: undici keeps the request until its connection attempt ends.
    else this.#onAbandon();
  }

  #settle(error: A2AClientError): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#scope.dispose();
    this.#reject(error);
  }
}
