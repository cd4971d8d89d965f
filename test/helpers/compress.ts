import zlib from 'node:zlib';
import type { Transform } from 'node:stream';

/** A coding a test server applies; `deflate-raw` is sent as `Content-Encoding: deflate` (raw, unwrapped). */
export type TestCoding = 'gzip' | 'deflate' | 'deflate-raw' | 'br' | 'zstd';

/** Node 22.15+ / 24 compress zstd; Node 20 does not. */
export const HAS_ZSTD = typeof Reflect.get(zlib, 'createZstdCompress') === 'function';

/** Every coding this platform can produce. */
export const CODINGS: TestCoding[] = ['gzip', 'deflate', 'deflate-raw', 'br', ...(HAS_ZSTD ? (['zstd'] as const) : [])];

/**
 * Node's own fetch decodes zstd from its undici 7 on (Node 24); Node 22's (undici 6) hands it on undecoded,
 * and the fetch engine does not decode what the platform's fetch left alone (it cannot tell).
 */
export const FETCH_DECODES_ZSTD = HAS_ZSTD && Number((process.versions.undici ?? '0').split('.')[0]) >= 7;

/** The codings an engine is held to decoding here: every one for the undici engine, the platform's for fetch. */
export function codingsFor(engine: string): TestCoding[] {
  return engine === 'fetch' && !FETCH_DECODES_ZSTD ? CODINGS.filter((c) => c !== 'zstd') : CODINGS;
}

/** The `Content-Encoding` header value of a coding. */
export function headerOf(coding: TestCoding): string {
  return coding === 'deflate-raw' ? 'deflate' : coding;
}

/** A streaming compressor for `coding`. */
export function compressor(coding: TestCoding): Transform {
  switch (coding) {
    case 'gzip':
      return zlib.createGzip();
    case 'deflate':
      return zlib.createDeflate();
    case 'deflate-raw':
      return zlib.createDeflateRaw();
    case 'br':
      // Quality 5: the default (11) is slow enough to matter in tests.
      return zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
    case 'zstd': {
      const make: unknown = Reflect.get(zlib, 'createZstdCompress');
      if (typeof make !== 'function') throw new Error('zstd is not available on this Node');
      return Reflect.apply(make, zlib, []) as Transform;
    }
  }
}

/** `data` compressed whole. */
export function compress(coding: TestCoding, data: string | Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const c = compressor(coding);
    c.on('data', (chunk: Buffer) => out.push(chunk));
    c.on('end', () => resolve(Buffer.concat(out)));
    c.on('error', reject);
    c.end(data);
  });
}

/**
 * Writes `text` into compressor `c` and flushes it, so every byte of `text` can be decoded from what
 * `c` emitted so far; resolves with those bytes.
 */
export function writeFlushed(c: Transform, text: string): Promise<Buffer> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const take = (chunk: Buffer) => out.push(chunk);
    c.on('data', take);
    c.write(text);
    const flush = Reflect.get(c, 'flush') as (kind: number | (() => void), cb?: () => void) => void;
    flush.call(c, () => {
      // The flushed output is emitted before the callback runs.
      c.off('data', take);
      resolve(Buffer.concat(out));
    });
  });
}

/**
 * A gzip "bomb" written as concatenated gzip members (each one decompresses to 1 MiB of `fill`), as
 * much as the peer reads: ~1 KiB on the wire per MiB decoded.
 */
export const BOMB_MEMBER = zlib.gzipSync(Buffer.alloc(1024 * 1024, 'a'), { level: 9 });
