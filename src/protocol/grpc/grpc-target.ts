/**
 * A gRPC interface URL from a card as a channel target. A2A 1.0.2 writes `host:port`; older cards
 * write `https://host:port[/path]` (or `http://`, `grpc://`, `grpcs://`). grpc-js takes `host:port`
 * (it refuses `http://host:port`), so every form is normalised to it; a path is dropped (gRPC routes
 * by `/<service>/<method>` at the root).
 */
import { A2AClientError } from '../../errors/a2a-client-error.js';

/** The gRPC options of a client (`ClientOptions.grpc`). */
export interface GrpcOptions {
  /**
   * Allow a plaintext (no TLS) channel to an agent that is not on a loopback address, for a bare
   * `host:port` or an `http://` / `grpc://` interface URL. Without it such agents are reached over
   * TLS (`host:port`), or refused (`http://`, `grpc://`: kind `unsupported`). Loopback agents
   * (`127.0.0.0/8`, `::1`, `localhost`) use plaintext for those URLs without asking.
   * @default false
   */
  insecure?: boolean;
  /**
   * HTTP/2 keepalive pings on an idle channel: a ping every `timeMs`, the connection dropped when
   * one is not answered within `timeoutMs`. `false` sends none. Servers may refuse pings that come
   * more often than they allow (`ENHANCE_YOUR_CALM`); the default is the most common server minimum.
   * @default { timeMs: 300000, timeoutMs: 20000 }
   */
  keepalive?:
    | false
    | {
        /** Time between pings on an idle channel. */
        timeMs?: number;
        /** How long a ping may go unanswered before the connection is dropped. */
        timeoutMs?: number;
      };
}

/** Where and how a channel connects. */
export interface GrpcTarget {
  /** `host:port` as grpc-js takes it (IPv6 hosts bracketed). */
  target: string;
  /** TLS on the channel. */
  secure: boolean;
  /** `grpc://host:port` or `grpcs://host:port`: the key of the agent's breaker, budget and channel. */
  origin: string;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

/** True for `localhost`, `127.x.y.z` and `::1`. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host);
}

function invalid(url: string, why: string): A2AClientError {
  return new A2AClientError({ kind: 'card', message: `Invalid gRPC interface url ${JSON.stringify(url.slice(0, 200))}: ${why}`, field: 'url', phase: 'before-send' });
}

/**
 * Normalises a card's gRPC interface URL.
 * @throws A2AClientError kind `card` (field `url`) for a URL that names no host and port; kind
 * `unsupported` for a plaintext URL to a host that is not loopback without `grpc.insecure`.
 */
export function grpcTarget(url: string, options: GrpcOptions = {}): GrpcTarget {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  let host: string;
  let port: string;
  let plaintextAsked: boolean;
  if (scheme === undefined) {
    // `host:port`, `[v6]:port`: parsed as the authority of a URL.
    if (!URL.canParse(`grpc://${url}`)) throw invalid(url, 'expected host:port');
    const u = new URL(`grpc://${url}`);
    if (u.port === '' || (u.pathname !== '' && u.pathname !== '/')) throw invalid(url, 'expected host:port');
    host = u.hostname;
    port = u.port;
    plaintextAsked = false;
  } else {
    if (!['http', 'https', 'grpc', 'grpcs'].includes(scheme) || !URL.canParse(url)) throw invalid(url, `unsupported scheme ${scheme}`);
    const u = new URL(url);
    const tls = scheme === 'https' || scheme === 'grpcs';
    host = u.hostname;
    port = u.port || (tls ? '443' : '80');
    plaintextAsked = !tls;
    if (tls) return { target: `${host}:${port}`, secure: true, origin: `grpcs://${host}:${port}` };
  }
  if (host === '') throw invalid(url, 'no host');
  const plaintext = isLoopbackHost(host) || options.insecure === true;
  if (plaintextAsked && !plaintext) {
    throw new A2AClientError({
      kind: 'unsupported',
      message: `the agent's gRPC interface ${scheme}://${host}:${port} is plaintext; set \`grpc: { insecure: true }\` to allow a channel without TLS to a host that is not loopback`,
      field: 'url',
      phase: 'before-send',
    });
  }
  return { target: `${host}:${port}`, secure: !plaintext, origin: `${plaintext ? 'grpc' : 'grpcs'}://${host}:${port}` };
}
