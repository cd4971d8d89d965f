import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { buildConnector } from 'undici';
import { undiciCore } from './undici-lib.js';
import { connectorTls, watchTlsRefusal, type TlsOptions } from './tls-options.js';

interface Connecting {
  key: string;
  started: number;
  socket: Duplex | undefined;
  /** Ends a CONNECT request to a proxy still waiting for its answer. */
  abort?: AbortController;
}

/**
 * The sockets' buffer (undici's default is 64 KB): what a socket reads on its own while its response
 * is paused. Small, so a paused event stream stops reading at once and its frames gather in the
 * kernel (`COALESCE_MS` in body-source.ts); reads themselves are not limited by it.
 */
export const SOCKET_HIGH_WATER_BYTES = 4 * 1024;

/** The error a torn-down attempt fails with: undici only settles a connect on `error`, not on a bare `close`. */
function abandonedError(): Error {
  return Object.assign(new Error('Connection attempt abandoned by the client'), { code: 'UND_ERR_ABORTED' });
}

/** `host:port` (brackets of an IPv6 literal removed, default port filled in): what attempts are matched by. */
function keyOf(protocol: string, hostname: string, port: string): string {
  const p = port !== '' ? port : protocol === 'https:' ? '443' : '80';
  return `${hostname.replace(/^\[|\]$/g, '').toLowerCase()}:${p}`;
}

/** The key of a CONNECT request's target, `host:port` as undici's ProxyAgent writes it. */
export function tunnelKey(authority: string): string {
  const colon = authority.lastIndexOf(':');
  return keyOf('https:', authority.slice(0, colon), authority.slice(colon + 1));
}

/**
 * Wraps undici's connector to remember sockets that are still connecting (TCP + TLS), so a request
 * whose `connect-timeout` fired (or that was aborted while connecting) can tear its connection attempt
 * down. undici itself keeps such a request queued until its own, coarse and far-off connect timeout.
 * Through a proxy it also tracks each CONNECT request (torn down by aborting it) and then the tunnel
 * until the TLS handshake over it ends ({@link tunnel}, {@link wrapTunnelConnect}).
 */
export class ConnectTracker {
  readonly #base: buildConnector.connector;
  readonly #clientCert: boolean;
  readonly #connecting = new Set<Connecting>();

  /** `timeout`: undici's own connect timeout, kept far beyond ours. `tls`: settings for connections to the agent. */
  constructor(timeout: number, tls?: TlsOptions) {
    const settings = connectorTls(tls);
    // `highWaterMark` is passed on to `net.connect` / `tls.connect` (undici sets its own default there).
    const build: buildConnector.BuildOptions & { highWaterMark: number } = { timeout, highWaterMark: SOCKET_HIGH_WATER_BYTES, ...settings };
    this.#base = undiciCore().buildConnector(build);
    this.#clientCert = settings.cert !== undefined;
  }

  /** The connector to pass as the `connect` option of an undici `Agent`. */
  readonly connect = (options: buildConnector.Options, callback: buildConnector.Callback): void => {
    const entry: Connecting = { key: keyOf(options.protocol, options.hostname, options.port), started: performance.now(), socket: undefined };
    this.#connecting.add(entry);
    const result: unknown = Reflect.apply(this.#base, undefined, [
      options,
      (...args: Parameters<buildConnector.Callback>) => {
        this.#connecting.delete(entry);
        const [error, socket] = args;
        if (error === null) watchTlsRefusal(socket, this.#clientCert);
        callback(...args);
      },
    ]);
    if (result instanceof Socket) entry.socket = result;
  };

  /**
   * Runs a CONNECT request to a proxy for `authority` (`host:port`) with a signal that
   * {@link abandon} fires; once the proxy said yes, the tunnel's socket stays tracked until
   * {@link wrapTunnelConnect}'s connector for the same target finishes (the TLS handshake over it).
   */
  async tunnel<T extends { socket: Duplex }>(authority: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const entry: Connecting = { key: tunnelKey(authority), started: performance.now(), socket: undefined, abort: new AbortController() };
    this.#connecting.add(entry);
    try {
      const result = await run(entry.abort!.signal);
      if (this.#connecting.has(entry)) {
        entry.socket = result.socket;
        delete entry.abort;
        result.socket.once('close', () => this.#connecting.delete(entry));
      }
      return result;
    } catch (error) {
      this.#connecting.delete(entry);
      throw error;
    }
  }

  /**
   * Wraps the connector undici's ProxyAgent gives a target's pool (CONNECT, then TLS over the
   * tunnel): when it finishes, the tunnel is no longer "connecting", and a TLS refusal on it is watched.
   */
  wrapTunnelConnect(connect: buildConnector.connector): buildConnector.connector {
    return (options, callback) => {
      const key = keyOf(options.protocol, options.hostname, options.port);
      Reflect.apply(connect, undefined, [
        options,
        (...args: Parameters<buildConnector.Callback>) => {
          this.#settleTunnel(key);
          if (args[0] === null) watchTlsRefusal(args[1], this.#clientCert);
          callback(...args);
        },
      ]);
    };
  }

  /**
   * Tears down the oldest still-connecting attempt to `url`'s origin opened at or after `since`
   * (`performance.now()` ms): the attempt made for the request that just gave up. Returns whether one was found.
   */
  abandon(url: string, since: number): boolean {
    const u = new URL(url);
    const key = keyOf(u.protocol, u.hostname, u.port);
    let oldest: Connecting | undefined;
    for (const entry of this.#connecting) {
      if (entry.key !== key || entry.started < since || (entry.socket === undefined && entry.abort === undefined)) continue;
      if (oldest === undefined || entry.started < oldest.started) oldest = entry;
    }
    if (oldest === undefined) return false;
    this.#connecting.delete(oldest);
    end(oldest);
    return true;
  }

  /** Tears down every attempt still connecting (used when the engine closes). */
  abandonAll(): void {
    for (const entry of this.#connecting) end(entry);
    this.#connecting.clear();
  }

  /** The oldest established tunnel to `key` is done connecting. */
  #settleTunnel(key: string): void {
    let oldest: Connecting | undefined;
    for (const entry of this.#connecting) {
      if (entry.key === key && entry.abort === undefined && entry.socket !== undefined && (oldest === undefined || entry.started < oldest.started)) oldest = entry;
    }
    if (oldest !== undefined) this.#connecting.delete(oldest);
  }
}

function end(entry: Connecting): void {
  if (entry.abort !== undefined) entry.abort.abort(abandonedError());
  else entry.socket?.destroy(abandonedError());
}
