/**
 * The web platform: browsers, Cloudflare workerd, other worker runtimes. The default engine is the
 * fetch engine over `globalThis.fetch` (looked up at each call); options that need Node's sockets
 * (`dispatcher`, `proxy`, `tls`) fail with kind `unsupported`; there is no gRPC binding (a card that
 * also lists JSON-RPC or HTTP+JSON falls back to it); `diagnostics_channel` events are a no-op
 * (`onEvent` callbacks work as everywhere); warnings go to the console; zod (the members the package uses)
 * and cockatiel are imported statically (a bundler has no synchronous `require`); tracing uses the API handed over with
 * `useOpenTelemetry` (nothing to look up). No `node:` module, `Buffer` or `process` is used.
 */
import { SamplingBreaker } from 'cockatiel';
import { A2AClientError } from '../errors/a2a-client-error.js';
import { FetchEngine } from '../transport/fetch-engine.js';
import { provideZod } from '../util/lazy-zod.js';
import { zodSubset } from '../util/zod-subset.js';
import type { EventChannel, Platform, Utf8StreamDecoder } from './platform.js';

/** This package's version, put in by scripts/bundle.mjs from package.json when it builds the web output. */
declare const A2A_RESILIENT_VERSION: string;

provideZod(zodSubset);

const NO_CHANNEL: EventChannel = { hasSubscribers: false, publish: () => undefined };

/** Options a WHATWG fetch cannot honour, and why. */
const NODE_ONLY = {
  dispatcher: 'an undici dispatcher needs Node',
  proxy: 'a WHATWG fetch takes no proxy settings (the browser or runtime chooses the proxy)',
  tls: 'a WHATWG fetch takes no TLS settings (the browser or runtime owns TLS)',
} as const;

function utf8Decoder(): Utf8StreamDecoder {
  const decoder = new TextDecoder('utf-8');
  return { write: (bytes) => decoder.decode(bytes, { stream: true }), end: () => decoder.decode() };
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  let length = 0;
  for (const c of chunks) length += c.byteLength;
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The web platform. */
export const platform: Platform = {
  name: 'web',
  defaultEngine: (options) => {
    for (const field of ['dispatcher', 'proxy', 'tls'] as const) {
      if (options[field] !== undefined) {
        throw new A2AClientError({
          kind: 'unsupported',
          message: `options.${field} is not supported in this build (browser/worker): ${NODE_ONLY[field]}`,
          field,
          phase: 'before-send',
        });
      }
    }
    return new FetchEngine('global');
  },
  channel: () => NO_CHANNEL,
  warn: (text) => console.warn(text),
  cockatiel: () => ({ SamplingBreaker }),
  otel: () => undefined,
  packageVersion: () => A2A_RESILIENT_VERSION,
  grpc: undefined,
  noGrpc: 'the gRPC binding needs Node (@grpc/grpc-js over node:http2); this build (browser/worker) speaks JSON-RPC and HTTP+JSON only',
  utf8Decoder,
  concat,
  utf8: (bytes) => new TextDecoder('utf-8').decode(bytes),
  base64ToUtf8: (text) => {
    // As leniently as Node's Buffer: padding optional, a dangling sixth bit dropped; never throws.
    let b64 = text.replace(/=+$/, '');
    if (b64.length % 4 === 1) b64 = b64.slice(0, -1);
    b64 += '='.repeat((4 - (b64.length % 4)) % 4);
    let binary: string;
    try {
      binary = atob(b64);
    } catch {
      // Not base64 after all: nothing decoded, so nothing more to redact.
      return '';
    }
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder('utf-8').decode(bytes);
  },
};
