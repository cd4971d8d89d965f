/**
 * The Node platform (also what Bun and Deno run): undici as the default engine (the fetch engine where the runtime cannot run it: Bun, Deno without --allow-env; transport/node-default-engine.ts), `node:diagnostics_channel`,
 * `process.emitWarning`, optional packages loaded synchronously with `require()`, gRPC through
 * `@grpc/grpc-js`, Buffer and StringDecoder for bytes. Imports nothing the package did not import
 * before this module existed, so importing the package costs the same.
 */
import { channel } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import { StringDecoder } from 'node:string_decoder';
import type { Platform, Utf8StreamDecoder } from './platform.js';
import { nodePackageVersion } from './node-package-version.js';
import { nodeDefaultEngine } from '../transport/node-default-engine.js';
import { GrpcBinding } from '../protocol/grpc/grpc-binding.js';

const require = createRequire(import.meta.url);

/** The bytes as a Buffer (a view, not a copy). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** StringDecoder keeps a split character like TextDecoder's stream mode, at a sixth of its cost per chunk. */
function utf8Decoder(): Utf8StreamDecoder {
  const decoder = new StringDecoder('utf8');
  return { write: (bytes) => decoder.write(asBuffer(bytes)), end: () => decoder.end() };
}

/** The Node platform. */
export const platform: Platform = {
  name: 'node',
  defaultEngine: nodeDefaultEngine,
  channel,
  warn: (text, code) => process.emitWarning(text, { code }),
  cockatiel: () => require('cockatiel') as ReturnType<Platform['cockatiel']>,
  otel: () => require('@opentelemetry/api') as ReturnType<Platform['otel']>,
  packageVersion: nodePackageVersion,
  grpc: {
    resolves: (name) => {
      try {
        require.resolve(name);
        return true;
      } catch {
        // Not resolvable from here: not installed (or not where this package can see it).
        return false;
      }
    },
    runtime: async () => (await import('../protocol/grpc/grpc-runtime.js')).runtime,
    binding: (init) => new GrpcBinding(init),
  },
  noGrpc: '',
  utf8Decoder,
  concat: (chunks) => Buffer.concat(chunks),
  utf8: (bytes) => asBuffer(bytes).toString('utf8'),
  base64ToUtf8: (text) => Buffer.from(text, 'base64').toString('utf8'),
};
