/**
 * What the rest of the package needs from the runtime it runs on, behind one interface so the same
 * sources serve Node and the web (browsers, Cloudflare workerd, other workers). `node.ts` and `web.ts`
 * each export a {@link Platform}; the code imports the current one from `current.ts` only. The Node
 * build (dist/src) uses `node.ts`; the web build (dist/web, made by scripts/bundle.mjs) swaps in
 * `web.ts`, and the package's `exports` conditions (`browser`, `workerd`, `worker`, `edge-light`)
 * hand that build to a user's bundler. zod is not here: `util/lazy-zod.ts` finds it itself on Node and
 * is handed the members it uses by `web.ts` (and by `a2a-resilient/push`, which stays platform-free).
 */
import type { SamplingBreaker } from 'cockatiel';
import type * as Otel from '@opentelemetry/api';
import type { EngineOptions, HttpEngine } from '../transport/engine.js';
import type { GrpcRuntime } from '../protocol/grpc/grpc-runtime.js';
import type { GrpcBindingInit } from '../protocol/grpc/grpc-binding.js';
import type { Binding } from '../protocol/binding.js';

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

/** Node's gRPC support: what `protocol/grpc/grpc-peers.ts` needs to find and load it. */
export interface GrpcSupport {
  /** True when the package `name` can be found from here. */
  resolves(name: string): boolean;
  /** Imports the gRPC runtime module (which imports the peers). */
  runtime(): Promise<GrpcRuntime>;
  /** A gRPC binding (its peers load on its first call). */
  binding(init: GrpcBindingInit): Binding;
}

/** The runtime services the package uses. */
export interface Platform {
  /** `'node'` (also Bun and Deno) or `'web'` (browsers, workerd, workers). */
  readonly name: 'node' | 'web';
  /**
   * The engine of a client that passes no `fetch`.
   * @throws A2AClientError kind `unsupported` for options this platform cannot honour.
   */
  defaultEngine(options: EngineOptions): HttpEngine;
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
  /** gRPC support, `undefined` where there is none (with the reason in {@link noGrpc}). */
  readonly grpc: GrpcSupport | undefined;
  /** Why there is no gRPC binding here (when {@link grpc} is `undefined`). */
  readonly noGrpc: string;
  /** A streaming UTF-8 decoder. */
  utf8Decoder(): Utf8StreamDecoder;
  /** The chunks as one byte array. */
  concat(chunks: readonly Uint8Array[]): Uint8Array;
  /** The bytes as UTF-8 text (invalid sequences become U+FFFD). */
  utf8(bytes: Uint8Array): string;
  /** Base64 `text` decoded, as UTF-8 text. */
  base64ToUtf8(text: string): string;
}
