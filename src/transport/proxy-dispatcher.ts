import type { Agent, Dispatcher, Pool, buildConnector } from 'undici';
import { A2AClientError } from '../errors/a2a-client-error.js';
import { ConnectTracker, SOCKET_HIGH_WATER_BYTES } from './connect-tracker.js';
import { ProxyRefusal, proxyName } from './proxy-refusal.js';
import { connectorTls, type TlsOptions } from './tls-options.js';
import { undici } from './undici-lib.js';

/** How the engine reaches agents: `'env'` reads the proxy variables, a URL names one proxy. */
export type ProxyOption = 'env' | string;

/** The proxies in play, for matching their own pools and naming them in errors. */
interface Proxies {
  /** Origins (no credentials) of every proxy this dispatcher may use. */
  origins: Set<string>;
}

/** A pool to a proxy whose CONNECT requests are tracked (see {@link tunnelPool}). */
type TunnelPoolClass = new (url: URL, options: Pool.Options, tracker: ConnectTracker) => Pool;

let tunnelPoolClass: TunnelPoolClass | undefined;

/**
 * The pool to a proxy that CONNECT requests go through: each CONNECT is tracked by the engine's
 * {@link ConnectTracker} (so a `connect-timeout` ends it at once) and a refusal becomes a
 * {@link ProxyRefusal} carrying the status, instead of undici's untyped "Proxy response (407) !== 200".
 * The class extends undici's `Pool`, so it is made on first use (undici loads lazily, see `undici-lib.ts`).
 */
function tunnelPool(): TunnelPoolClass {
  return (tunnelPoolClass ??= class TunnelPool extends undici().Pool {
    readonly #tracker: ConnectTracker;
    readonly #name: string;

    constructor(url: URL, options: Pool.Options, tracker: ConnectTracker) {
      super(url, options);
      this.#tracker = tracker;
      this.#name = proxyName(url.href);
    }

    override connect(options: Omit<Dispatcher.ConnectOptions, 'origin'>): Promise<Dispatcher.ConnectData>;
    override connect(options: Omit<Dispatcher.ConnectOptions, 'origin'>, callback: (err: Error | null, data: Dispatcher.ConnectData) => void): void;
    override connect(
      options: Omit<Dispatcher.ConnectOptions, 'origin'>,
      callback?: (err: Error | null, data: Dispatcher.ConnectData) => void,
    ): Promise<Dispatcher.ConnectData> | void {
      if (callback !== undefined) {
        super.connect(options, callback);
        return;
      }
      return this.#tracker.tunnel(options.path, async (signal) => {
        const data = await super.connect({ ...options, signal });
        if (data.statusCode !== 200) {
          data.socket.destroy();
          throw new ProxyRefusal(data.statusCode, this.#name);
        }
        return data;
      });
    }
  });
}

/**
 * An undici dispatcher that reaches agents through a proxy: undici's `ProxyAgent` for a URL,
 * `EnvHttpProxyAgent` for `'env'` (`https_proxy`/`HTTPS_PROXY` for https agents, `http_proxy`/
 * `HTTP_PROXY` for http ones and as the fallback, `no_proxy`/`NO_PROXY` to go direct). An https agent
 * is reached through a CONNECT tunnel; an http one with absolute-form requests (`proxyTunnel: false`,
 * as curl does: proxies commonly allow CONNECT to port 443 only). undici's pieces are used as they
 * are; ours are only plugged in through their factories: every pool gets the engine's pool settings,
 * connections to agents (direct, or TLS over a tunnel) the engine's {@link ConnectTracker}, the
 * proxy's own connections a tracker of their own (closed with the engine), and `tls` applies to the
 * agent, never to the proxy (an `https:` proxy is checked against Node's own CAs).
 * @throws A2AClientError kind `unsupported` (field `proxy`) for a URL that does not parse or is not http(s).
 */
export function createProxyDispatcher(
  proxy: ProxyOption,
  poolOptions: Readonly<Agent.Options>,
  tracker: ConnectTracker,
  proxyTracker: ConnectTracker,
  tls: TlsOptions | undefined,
  connectTimeout: number,
): Dispatcher {
  const proxies: Proxies = { origins: new Set() };
  const env = process.env;
  const urls = proxy === 'env' ? [env.http_proxy ?? env.HTTP_PROXY, env.https_proxy ?? env.HTTPS_PROXY] : [proxy];
  for (const url of urls) {
    if (url === undefined || url === '') continue;
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      throw new A2AClientError({ kind: 'unsupported', message: `proxy must be an http(s) URL, got ${proxyName(url)}`, field: 'proxy', phase: 'before-send' });
    }
    proxies.origins.add(new URL(url).origin);
  }
  const { EnvHttpProxyAgent, Pool, ProxyAgent } = undici();
  const TunnelPool = tunnelPool();
  const factory = (origin: string | URL, options: object): Dispatcher => {
    const given = Reflect.get(options, 'connect') as buildConnector.connector | undefined;
    if (proxies.origins.has(new URL(origin).origin)) return new Pool(origin, { ...poolOptions, connect: proxyTracker.connect });
    if (given === undefined || given === tracker.connect) return new Pool(origin, { ...poolOptions, ...options, connect: tracker.connect });
    return new Pool(origin, { ...poolOptions, ...options, connect: tracker.wrapTunnelConnect(given) });
  };
  const shared = {
    ...poolOptions,
    connect: tracker.connect,
    factory,
    clientFactory: (url: URL) => new TunnelPool(url, { ...poolOptions, connect: proxyTracker.connect }, tracker),
    requestTls: { timeout: connectTimeout, highWaterMark: SOCKET_HIGH_WATER_BYTES, ...connectorTls(tls) },
    proxyTunnel: false,
  };
  return proxy === 'env' ? new EnvHttpProxyAgent(shared) : new ProxyAgent({ ...shared, uri: proxy });
}
