import zlib from 'node:zlib';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpEngine } from '../../src/transport/engine.js';
import { UndiciEngine } from '../../src/transport/undici-engine.js';
import { ACCEPT_ENCODING } from '../../src/transport/content-decoding.js';
import { readErrorBody } from '../../src/transport/read-error-body.js';
import { startFaultServer } from '../helpers/fault-server.js';
import type { FaultServer } from '../helpers/fault-server.js';
import { BOMB_MEMBER, HAS_ZSTD, codingsFor, compress, headerOf } from '../helpers/compress.js';
import { ENGINES, failure, req } from './harness.js';

/** A JSON body big enough to span many decoder buffers and network reads. */
const BODY = JSON.stringify({ artifacts: Array.from({ length: 2_000 }, (_, i) => ({ i, text: `part ${i} of a long answer ` })) });

/** Members in a whole bomb: 16 GiB decoded, ~16 MiB on the wire. */
const BOMB_MEMBERS = 16 * 1024;

/** Writes gzip members of 1 MiB each until the client goes away; returns how many were written. */
function writeBomb(res: ServerResponse, headers: Record<string, string>, prefix?: Buffer): { members: () => number } {
  let n = 0;
  res.writeHead(200, headers);
  if (prefix !== undefined) res.write(prefix);
  const pump = () => {
    while (!res.destroyed && n < BOMB_MEMBERS) {
      n++;
      if (!res.write(BOMB_MEMBER)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  res.on('error', () => undefined);
  pump();
  return { members: () => n };
}

describe.each(ENGINES)('$name engine decodes compressed answers', ({ name, make }) => {
  // Node's fetch decodes by itself (its own zlib streams; the engine does not decode again): the same
  // cases give the same kinds. Where fetch is laxer (a truncated stream, an unknown coding passed on
  // undecoded) only the undici engine is held to our rule, below.
  let server: FaultServer;
  let engine: HttpEngine;

  beforeAll(async () => {
    server = await startFaultServer();
    engine = make();
  });
  afterAll(async () => {
    await engine.close();
    await server.close();
  });

  it.each(codingsFor(name))('decodes a %s body', async (coding) => {
    const wire = await compress(coding, BODY);
    server.route(`/unary-${coding}`, (_rq, rs) => {
      rs.writeHead(200, { 'content-type': 'application/json', 'content-encoding': headerOf(coding), 'content-length': String(wire.length) });
      rs.end(wire);
    });
    const res = await engine.send(req(`${server.url}/unary-${coding}`));
    expect(await res.text()).toBe(BODY);
  });

  it('decodes a body split into one-byte writes (the deflate variant is told from bytes that arrive apart)', async () => {
    const wire = await compress('deflate-raw', BODY.slice(0, 300));
    server.route('/dribble', (_rq, rs) => {
      rs.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' });
      let i = 0;
      const step = () => {
        if (i >= wire.length) return rs.end();
        rs.write(wire.subarray(i, i + 1));
        i++;
        setTimeout(step, i < 4 ? 10 : 0);
      };
      step();
    });
    const res = await engine.send(req(`${server.url}/dribble`));
    expect(await res.text()).toBe(BODY.slice(0, 300));
  });

  it('decodes stacked codings in reverse order of application (gzip, then br)', async () => {
    const wire = await compress('br', await compress('gzip', BODY));
    server.route('/stacked', (_rq, rs) => {
      rs.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip, br' });
      rs.end(wire);
    });
    const res = await engine.send(req(`${server.url}/stacked`));
    expect(await res.text()).toBe(BODY);
  });

  it('reads an empty 204 carrying Content-Encoding as empty', async () => {
    server.route('/empty', (_rq, rs) => {
      rs.writeHead(204, { 'content-encoding': 'gzip' });
      rs.end();
    });
    const res = await engine.send(req(`${server.url}/empty`));
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('decodes a compressed error body for the error report', async () => {
    const wire = await compress('gzip', '{"error":"overloaded"}');
    server.route('/gz503', (_rq, rs) => {
      rs.writeHead(503, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      rs.end(wire);
    });
    const res = await engine.send(req(`${server.url}/gz503`));
    expect(await readErrorBody(res)).toBe('{"error":"overloaded"}');
  });

  it('applies maxResponseBytes to the decoded size: a gzip bomb ends as invalid-response with bounded memory', async () => {
    let written = () => 0;
    server.route('/bomb', (_rq, rs) => {
      written = writeBomb(rs, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).members;
    });
    const before = process.memoryUsage();
    const { error, ms } = await failure(async () => {
      const res = await engine.send(req(`${server.url}/bomb`, { limits: { maxResponseBytes: 4 * 1024 * 1024, maxEventBytes: 1024 } }));
      return res.text();
    });
    const after = process.memoryUsage();
    expect(error.kind).toBe('invalid-response');
    expect(error.field).toBe('body');
    // 16 GiB decoded if read to the end; the cap stops it after ~4 MiB.
    expect(written()).toBeLessThan(BOMB_MEMBERS);
    expect(ms).toBeLessThan(5_000);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * 1024 * 1024);
    expect(after.rss - before.rss).toBeLessThan(256 * 1024 * 1024);
  });

  it('ends a body cut mid-stream as connection, not as a decoding error', async () => {
    const wire = await compress('gzip', BODY);
    server.route('/gz-reset', (rq, rs) => {
      rs.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      rs.write(wire.subarray(0, wire.length >> 1), () => setTimeout(() => rq.socket.resetAndDestroy(), 20));
    });
    const res = await engine.send(req(`${server.url}/gz-reset`));
    const { error } = await failure(() => res.text());
    expect(error.kind).toBe('connection');
  });

  it('bounds a stalled compressed body with the read timer', async () => {
    const wire = await compress('gzip', BODY);
    server.route('/gz-stall', (_rq, rs) => {
      rs.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      rs.write(wire.subarray(0, wire.length >> 1));
    });
    const res = await engine.send(req(`${server.url}/gz-stall`, { timeouts: { connectMs: 1_000, readMs: 200, streamIdleMs: 5_000 } }));
    const { error, ms } = await failure(() => res.text());
    expect(error.kind).toBe('read-timeout');
    expect(ms).toBeGreaterThanOrEqual(150);
    expect(ms).toBeLessThan(1_500);
  });

  it('ends a corrupt body as invalid-response (field content-encoding)', async () => {
    server.route('/corrupt', (_rq, rs) => {
      rs.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      rs.end('{"this is":"not gzip at all"}');
    });
    const res = await engine.send(req(`${server.url}/corrupt`));
    const { error } = await failure(() => res.text());
    expect(error.kind).toBe('invalid-response');
    expect(error.field).toBe('content-encoding');
    if (name === 'undici') expect(error.message).toContain('gzip');
  });
});

describe('undici engine: what only our decoder checks', () => {
  let server: FaultServer;
  let engine: UndiciEngine;

  beforeAll(async () => {
    server = await startFaultServer();
    engine = new UndiciEngine();
  });
  afterAll(async () => {
    await engine.close();
    await server.close();
  });

  it('ends a truncated gzip stream (complete HTTP body) as invalid-response (field content-encoding)', async () => {
    const wire = await compress('gzip', BODY);
    server.route('/truncated', (_rq, rs) => {
      rs.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      rs.end(wire.subarray(0, wire.length - 6));
    });
    const res = await engine.send(req(`${server.url}/truncated`));
    const { error } = await failure(() => res.text());
    expect(error.kind).toBe('invalid-response');
    expect(error.field).toBe('content-encoding');
  });

  it('ends an unknown coding as invalid-response (field content-encoding), without reading the body', async () => {
    server.route('/unknown', (_rq, rs) => {
      rs.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'compress' });
      rs.end('\x1f\x9d...');
    });
    const res = await engine.send(req(`${server.url}/unknown`));
    const { error } = await failure(() => res.text());
    expect(error.kind).toBe('invalid-response');
    expect(error.field).toBe('content-encoding');
    expect(error.message).toContain('"compress"');
  });

  it('refuses more than five stacked codings', async () => {
    server.route('/many', (_rq, rs) => {
      rs.writeHead(200, { 'content-encoding': 'gzip, gzip, gzip, gzip, gzip, gzip' });
      rs.end('x');
    });
    const res = await engine.send(req(`${server.url}/many`));
    const { error } = await failure(() => res.text());
    expect(error.field).toBe('content-encoding');
  });

  it('ignores identity and case', async () => {
    const wire = await compress('gzip', BODY);
    server.route('/identity', (_rq, rs) => {
      rs.writeHead(200, { 'content-encoding': 'identity, GZip' });
      rs.end(wire);
    });
    const res = await engine.send(req(`${server.url}/identity`));
    expect(await res.text()).toBe(BODY);
  });

  it('stops reading when the coding ends before the body (trailing bytes), and returns what it decoded', async () => {
    const wire = Buffer.concat([zlib.deflateSync(Buffer.from(BODY)), Buffer.from('trailing junk')]);
    server.route('/trailing', (_rq, rs) => {
      rs.writeHead(200, { 'content-encoding': 'deflate' });
      rs.end(wire);
    });
    const res = await engine.send(req(`${server.url}/trailing`));
    expect(await res.text()).toBe(BODY);
  });
});

describe('undici engine: compression option', () => {
  let server: FaultServer;
  const seen: Array<string | undefined> = [];

  beforeAll(async () => {
    server = await startFaultServer();
    server.route('/ae', (rq, rs) => {
      seen.push(rq.headers['accept-encoding']);
      rs.end('{}');
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends Accept-Encoding with every coding it decodes when compression is on, none when off', async () => {
    const on = new UndiciEngine({ compression: true });
    const off = new UndiciEngine({ compression: false });
    const byDefault = new UndiciEngine();
    try {
      for (const engine of [on, off, byDefault]) await (await engine.send(req(`${server.url}/ae`))).text();
      // The caller's own Accept-Encoding wins.
      await (await on.send(req(`${server.url}/ae`, { headers: { 'accept-encoding': 'identity' } }))).text();
    } finally {
      await Promise.all([on.close(), off.close(), byDefault.close()]);
    }
    expect(seen).toEqual([ACCEPT_ENCODING, undefined, undefined, 'identity']);
    expect(ACCEPT_ENCODING).toBe(HAS_ZSTD ? 'gzip, deflate, br, zstd' : 'gzip, deflate, br');
  });
});
