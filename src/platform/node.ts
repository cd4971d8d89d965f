/**
 * The Node platform (also what Bun and Deno run): `node:diagnostics_channel`, `process.emitWarning`,
 * optional packages found with `require.resolve()` and loaded synchronously with `require()`, Buffer
 * and StringDecoder for bytes. Imports only Node built-ins and this folder.
 */
import { channel } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import { StringDecoder } from 'node:string_decoder';
import type { Platform, Utf8StreamDecoder } from './platform.js';
import { nodePackageVersion } from './node-package-version.js';

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
  channel,
  warn: (text, code) => process.emitWarning(text, { code }),
  cockatiel: () => require('cockatiel') as ReturnType<Platform['cockatiel']>,
  otel: () => require('@opentelemetry/api') as ReturnType<Platform['otel']>,
  packageVersion: nodePackageVersion,
  resolves: (name) => {
    try {
      require.resolve(name);
      return true;
    } catch {
      // Not resolvable from here: not installed (or not where this package can see it).
      return false;
    }
  },
  utf8Decoder,
  concat: (chunks) => Buffer.concat(chunks),
  utf8: (bytes) => asBuffer(bytes).toString('utf8'),
  base64ToUtf8: (text) => Buffer.from(text, 'base64').toString('utf8'),
};
