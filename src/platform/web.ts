/**
 * The web platform: browsers, Cloudflare workerd, other worker runtimes. `diagnostics_channel` events
 * are a no-op (`onEvent` callbacks work as everywhere); warnings go to the console; cockatiel is
 * imported statically (a bundler has no synchronous `require`), and no other package can be looked up;
 * tracing uses the API handed over with `useOpenTelemetry` (nothing to look up). No `node:` module,
 * `Buffer` or `process` is used. (The fetch engine over `globalThis.fetch`, no gRPC and the bundled zod
 * are this build's too: `transport/create-engine.ts`, `protocol/grpc/grpc-support.web.ts`,
 * `util/load-zod.web.ts`.)
 */
import { SamplingBreaker } from 'cockatiel';
import type { EventChannel, Platform, Utf8StreamDecoder } from './platform.js';

/** This package's version, put in by scripts/bundle.mjs from package.json when it builds the web output. */
declare const A2A_RESILIENT_VERSION: string;

const NO_CHANNEL: EventChannel = { hasSubscribers: false, publish: () => undefined };

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
  channel: () => NO_CHANNEL,
  warn: (text) => console.warn(text),
  cockatiel: () => ({ SamplingBreaker }),
  otel: () => undefined,
  packageVersion: () => A2A_RESILIENT_VERSION,
  resolves: () => false,
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
