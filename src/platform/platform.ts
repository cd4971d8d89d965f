/**
 * The runtime primitives the rest of the package needs, behind one interface so the same sources
 * serve Node and the web (browsers, Cloudflare workerd, other workers): bytes and UTF-8, base64, the
 * diagnostics channel, warnings, loading optional peers, this package's version. `node.ts` and
 * `web.ts` each export a {@link Platform}; the code imports the current one from `current.ts` only
 * (the web build takes `current.web.ts` in its place: scripts/bundle.mjs). Nothing here imports the
 * rest of the package: it is the ground floor. What a client is built from — the default HTTP engine
 * (`transport/create-engine.ts`), gRPC (`protocol/grpc/grpc-support.ts`), where zod comes from
 * (`util/load-zod.ts`) — is chosen where it belongs, by the same build-time swap.
 */
import type { SamplingBreaker } from 'cockatiel';
import type * as Otel from '@opentelemetry/api';

/** A publish-only view of a `node:diagnostics_channel` channel (a no-op where there is none). */
export interface EventChannel {
  /** True when anyone listens. */
  readonly hasSubscribers: boolean;
  /** Hands `message` to the listeners. */
  publish(message: unknown): void;
}

/** A UTF-8 decoder that keeps a multi-byte character split across chunks. */
export interface Utf8StreamDecoder {
  /** Decodes `bytes`, holding back an incomplete trailing character. */
  write(bytes: Uint8Array): string;
  /** Flushes what is held back (a broken character becomes U+FFFD). */
  end(): string;
}

/** The runtime services the package uses. */
export interface Platform {
  /** `'node'` (also Bun and Deno) or `'web'` (browsers, workerd, workers). */
  readonly name: 'node' | 'web';
  /** The diagnostics channel `name`. */
  channel(name: string): EventChannel;
  /** Reports a warning that must not break a call (`process.emitWarning` on Node, else the console). */
  warn(text: string, code: string): void;
  /** cockatiel, loaded synchronously (only for sampling breakers). @throws when it cannot be loaded. */
  cockatiel(): { SamplingBreaker: typeof SamplingBreaker };
  /**
   * `@opentelemetry/api`, loaded synchronously; `undefined` when this platform cannot look it up
   * (the application hands it over with `useOpenTelemetry`).
   * @throws the loading failure of an API that is installed but broken.
   */
  otel(): typeof Otel | undefined;
  /** This package's version. @throws when it cannot be read. */
  packageVersion(): string;
  /**
   * True when the (optional peer) package `name` can be found from here without loading it; always
   * false where nothing can be looked up synchronously (the web build: a bundler decided at build time).
   */
  resolves(name: string): boolean;
  /** A streaming UTF-8 decoder. */
  utf8Decoder(): Utf8StreamDecoder;
  /** The chunks as one byte array. */
  concat(chunks: readonly Uint8Array[]): Uint8Array;
  /** The bytes as UTF-8 text (invalid sequences become U+FFFD). */
  utf8(bytes: Uint8Array): string;
  /** Base64 `text` decoded, as UTF-8 text. */
  base64ToUtf8(text: string): string;
}
