/**
 * One gRPC channel per target, shared by every client of that target with the same channel
 * settings (TLS, keepalive, message cap), refcounted: a client leases it on its first call and
 * releases it in `close()`; the last release closes the channel. The channel is the engine-level
 * resource of the gRPC binding, as the undici dispatcher is of the HTTP ones.
 */
import type { ChannelCredentials, ChannelOptions, Client } from '@grpc/grpc-js';
import { createSecureContext } from 'node:tls';
import type { TlsOptions } from '../../transport/tls-options.js';
import type { GrpcRuntime } from './grpc-runtime.js';
import type { GrpcOptions, GrpcTarget } from './grpc-target.js';

/** What a channel is built from. */
export interface ChannelSettings {
  target: GrpcTarget;
  tls?: TlsOptions | undefined;
  grpc?: GrpcOptions | undefined;
  /** Largest response message accepted (`limits.maxResponseBytes`). */
  maxReceiveBytes: number;
}

/** A client's hold on a shared channel. */
export interface ChannelLease {
  readonly client: Client;
  /** Gives the channel back; the last holder's release closes it. Idempotent. */
  release(): void;
}

/** The keepalive the channel uses when `grpc.keepalive` is not set. */
export const DEFAULT_KEEPALIVE = Object.freeze({ timeMs: 300_000, timeoutMs: 20_000 });

interface Entry {
  client: Client;
  refs: number;
}

const channels = new Map<string, Entry>();
/** Distinct `tls` objects get distinct channels (their keys and CAs are not compared by value). */
const tlsIds = new WeakMap<TlsOptions, number>();
let nextTlsId = 1;

function tlsId(tls: TlsOptions | undefined): number {
  if (tls === undefined) return 0;
  let id = tlsIds.get(tls);
  if (id === undefined) {
    id = nextTlsId++;
    tlsIds.set(tls, id);
  }
  return id;
}

function channelOptions(s: ChannelSettings): ChannelOptions {
  const keepalive = s.grpc?.keepalive === false ? undefined : { ...DEFAULT_KEEPALIVE, ...s.grpc?.keepalive };
  const options: ChannelOptions = {
    'grpc.max_receive_message_length': Math.min(s.maxReceiveBytes, 2 ** 31 - 1),
    // Retries are the pipeline's (classified, budgeted, under the deadline): no service-config
    // retry policy from DNS may add its own. grpc-js's transparent retries of requests that never
    // left the client stay on (gRFC A6).
    'grpc.service_config_disable_resolution': 1,
    // A refused connection is retried by the pipeline's backoff; the channel's own reconnect backoff
    // starts low so that a retry soon after finds the channel trying again.
    'grpc.initial_reconnect_backoff_ms': 200,
    'grpc.max_reconnect_backoff_ms': 10_000,
  };
  if (keepalive) {
    options['grpc.keepalive_time_ms'] = keepalive.timeMs;
    options['grpc.keepalive_timeout_ms'] = keepalive.timeoutMs;
  }
  if (s.target.secure && s.tls?.servername !== undefined) options['grpc.ssl_target_name_override'] = s.tls.servername;
  return options;
}

function credentials(rt: GrpcRuntime, s: ChannelSettings): ChannelCredentials {
  const { credentials: creds } = rt.grpc;
  if (!s.target.secure) return creds.createInsecure();
  const tls = s.tls;
  const verify = tls?.rejectUnauthorized === false ? { rejectUnauthorized: false } : {};
  if (tls === undefined || (tls.ca === undefined && tls.cert === undefined && tls.key === undefined)) return creds.createSsl(null, null, null, verify);
  // Node's own secure context takes the `tls` option as the HTTP engine's connector does (passphrase included).
  const context = createSecureContext({
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.cert === undefined ? {} : { cert: tls.cert }),
    ...(tls.key === undefined ? {} : { key: tls.key }),
    ...(tls.passphrase === undefined ? {} : { passphrase: tls.passphrase }),
  });
  return creds.createFromSecureContext(context, verify);
}

/**
 * Leases the channel for `settings`, creating it on first use.
 * @throws Error from grpc-js or Node's TLS for settings it refuses (a bad PEM): the binding types it.
 */
export function acquireChannel(rt: GrpcRuntime, settings: ChannelSettings): ChannelLease {
  const keepalive = settings.grpc?.keepalive === false ? 'off' : JSON.stringify(settings.grpc?.keepalive ?? {});
  const key = `${settings.target.origin}|${tlsId(settings.tls)}|${keepalive}|${settings.maxReceiveBytes}`;
  let entry = channels.get(key);
  if (entry === undefined) {
    entry = { client: new rt.grpc.Client(settings.target.target, credentials(rt, settings), channelOptions(settings)), refs: 0 };
    channels.set(key, entry);
  }
  entry.refs++;
  const held = entry;
  let released = false;
  return {
    client: held.client,
    release() {
      if (released) return;
      released = true;
      held.refs--;
      if (held.refs > 0) return;
      if (channels.get(key) === held) channels.delete(key);
      held.client.close();
    },
  };
}

/** How many channels are open (for tests and diagnostics). */
export function openChannelCount(): number {
  return channels.size;
}
