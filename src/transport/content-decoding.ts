import zlib from 'node:zlib';
import type { Transform } from 'node:stream';
import type { BodySource } from './body-source.js';
import { DecodingSource, contentEncodingError } from './decoding-source.js';
import type { DecoderFactory } from './decoding-source.js';

// Why not undici's `interceptors.decompress` (undici 7.30): it is experimental and prints an
// ExperimentalWarning into the caller's process; its `maxSize` is one number per dispatcher, while our
// caps are per request and per SSE event, and its overflow is its own error class; it passes a coding it
// does not know through undecoded (we must not hand compressed bytes to JSON.parse); it decodes
// `deflate` as zlib-wrapped only, while servers send raw deflate too; and it pushes output into the
// handler, where our PushSource would have to buffer it. Decoding as a pulled BodySource keeps our
// backpressure, our timers and our caps on the decoded size with the node:zlib decoders it uses too.

/** More codings than this on one response is refused (decoder chains are a known resource-exhaustion trick). */
export const MAX_CODINGS = 5;

/** Node 22.15+ / 23.8+ decode zstd; Node 20 does not (looked up, as @types/node 20 does not declare it). */
const zstdDecoder: unknown = Reflect.get(zlib, 'createZstdDecompress');

/** A zlib header: compression method 8 (deflate) with a window of at most 32 KiB, and its check bits. */
function isZlibHeader(head: Uint8Array): boolean {
  const cmf = head[0] ?? 0;
  const flg = head[1] ?? 0;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0;
}

/**
 * Decoder output buffers of 64 KiB (node:zlib's default is 16 KiB): a tenth less CPU on a 10 MB body, and
 * what a bomb can hold beyond the cap stays one such buffer.
 */
const OPTIONS = { chunkSize: 64 * 1024 };
const DECODERS: Readonly<Record<string, DecoderFactory>> = {
  gzip: () => zlib.createGunzip(OPTIONS),
  'x-gzip': () => zlib.createGunzip(OPTIONS),
  // RFC 9110 says zlib-wrapped; some servers send raw deflate: the first two bytes tell which.
  deflate: (head) => (isZlibHeader(head) ? zlib.createInflate(OPTIONS) : zlib.createInflateRaw(OPTIONS)),
  br: () => zlib.createBrotliDecompress(OPTIONS),
  ...(typeof zstdDecoder === 'function' ? { zstd: () => Reflect.apply(zstdDecoder, zlib, [OPTIONS]) as Transform } : {}),
};

/** The `Accept-Encoding` a client with `compression: true` sends: every coding this platform decodes. */
export const ACCEPT_ENCODING = Object.keys(DECODERS)
  .filter((c) => c !== 'x-gzip')
  .join(', ');

/**
 * The body `source` decoded by its `Content-Encoding` (`contentEncoding`, the header's value): each
 * coding undone in reverse order of application (`gzip, br` is br-decoded, then gunzipped), `identity`
 * skipped; see {@link DecodingSource}. A coding this platform does not decode, or more than
 * {@link MAX_CODINGS}, gives a source whose first read fails (and releases the body) with kind
 * `invalid-response`, field `content-encoding`: the bytes are not what the media type says.
 */
export function decodeContent(source: BodySource, contentEncoding: string | undefined): BodySource {
  if (contentEncoding === undefined) return source;
  const codings = contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return source;
  if (codings.length > MAX_CODINGS) return failing(source, `The response has ${codings.length} content codings; at most ${MAX_CODINGS} are decoded`);
  let decoded = source;
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i] as string;
    const create = Object.hasOwn(DECODERS, coding) ? DECODERS[coding] : undefined;
    if (create === undefined) return failing(source, `The response's content coding "${coding.slice(0, 40)}" is not supported (supported: ${ACCEPT_ENCODING})`);
    decoded = new DecodingSource(decoded, coding, create);
  }
  return decoded;
}

/** A source that fails at its first read without reading `source`, and releases it. */
function failing(source: BodySource, message: string): BodySource {
  const error = contentEncodingError(message);
  return {
    watched: true,
    next: () => {
      source.destroy();
      return Promise.reject(error);
    },
    destroy: () => source.destroy(),
  };
}
