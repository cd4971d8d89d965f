import { Socket } from 'node:net';
import { buildConnector } from 'undici';

interface Connecting {
  key: string;
  started: number;
  socket: Socket | undefined;
}

/** The error a torn-down attempt fails with: undici only settles a connect on `error`, not on a bare `close`. */
function abandonedError(): Error {
  return Object.assign(new Error('Connection attempt abandoned by the client'), { code: 'UND_ERR_ABORTED' });
}

function keyOf(protocol: string, hostname: string, port: string): string {
  const p = port !== '' ? port : protocol === 'https:' ? '443' : '80';
  return `${protocol}//${hostname.replace(/^\[|\]$/g, '')}:${p}`;
}

/**
 * Wraps undici's connector to remember sockets that are still connecting (TCP + TLS), so a request
 * whose `connect-timeout` fired (or that was aborted while connecting) can tear its connection attempt
 * down. undici itself keeps such a request queued until its own, coarse and far-off connect timeout.
 */
export class ConnectTracker {
  readonly #base: buildConnector.connector;
  readonly #connecting = new Set<Connecting>();

  /** `timeout`: undici's own connect timeout, kept far beyond ours. */
  constructor(timeout: number) {
    this.#base = buildConnector({ timeout });
  }

  /** The connector to pass as the `connect` option of an undici `Agent`. */
  readonly connect = (options: buildConnector.Options, callback: buildConnector.Callback): void => {
    const entry: Connecting = { key: keyOf(options.protocol, options.hostname, options.port), started: performance.now(), socket: undefined };
    this.#connecting.add(entry);
    const result: unknown = Reflect.apply(this.#base, undefined, [
      options,
      (...args: Parameters<buildConnector.Callback>) => {
        this.#connecting.delete(entry);
        callback(...args);
      },
    ]);
    if (result instanceof Socket) entry.socket = result;
  };

  /**
   * Destroys the oldest still-connecting socket to `url`'s origin opened at or after `since`
   * (`performance.now()` ms): the attempt made for the request that just gave up. Returns whether one was found.
   */
  abandon(url: string, since: number): boolean {
    const u = new URL(url);
    const key = keyOf(u.protocol, u.hostname, u.port);
    let oldest: Connecting | undefined;
    for (const entry of this.#connecting) {
      if (entry.key !== key || entry.started < since || entry.socket === undefined) continue;
      if (oldest === undefined || entry.started < oldest.started) oldest = entry;
    }
    if (oldest === undefined) return false;
    this.#connecting.delete(oldest);
    oldest.socket?.destroy(abandonedError());
    return true;
  }

  /** Destroys every socket still connecting (used when the engine closes). */
  abandonAll(): void {
    for (const entry of this.#connecting) entry.socket?.destroy(abandonedError());
    this.#connecting.clear();
  }
}
