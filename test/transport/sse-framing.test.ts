import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpEngine, SseEvent } from '../../src/transport/engine.js';
import { SseFramer } from '../../src/transport/sse-reader.js';
import { startFaultServer } from '../helpers/fault-server.js';
import type { FaultServer } from '../helpers/fault-server.js';
import { ENGINES, failure, req, sseEvents } from './harness.js';

const enc = new TextEncoder();

function frame(text: string | string[], max = 1_000_000): { events: SseEvent[]; framer: SseFramer } {
  const framer = new SseFramer(max);
  const events: SseEvent[] = [];
  for (const part of Array.isArray(text) ? text : [text]) events.push(...framer.push(enc.encode(part)));
  events.push(...framer.push(undefined));
  return { events, framer };
}

describe('SseFramer', () => {
  it('splits on LF, CRLF and CR alike', () => {
    expect(frame('data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\n\n').events.map((e) => e.data)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('joins multi-line data with \\n and keeps event and id fields', () => {
    const { events } = frame('event: error\nid: 7\ndata: line1\ndata: line2\n\n');
    expect(events).toEqual([{ event: 'error', id: '7', data: 'line1\nline2' }]);
  });

  it('tracks the last event id across events without one', () => {
    const { events, framer } = frame('id: 1\ndata: a\n\ndata: b\n\n');
    expect(events[1]).toEqual({ data: 'b' });
    expect(framer.lastEventId).toBe('1');
  });

  it('reassembles events split across chunks, even inside a UTF-8 character', () => {
    const bytes = enc.encode('data: héllo\n\n');
    const framer = new SseFramer(1_000);
    const out = [...framer.push(bytes.subarray(0, 8)), ...framer.push(bytes.subarray(8)), ...framer.push(undefined)];
    expect(out).toEqual([{ data: 'héllo' }]);
  });

  it('drops a byte-order mark at the start of the stream, even split across chunks', () => {
    const bytes = enc.encode('\uFEFFdata: a\n\ndata: \uFEFFb\n\n');
    const framer = new SseFramer(1_000);
    const out = [...framer.push(bytes.subarray(0, 2)), ...framer.push(bytes.subarray(2)), ...framer.push(undefined)];
    expect(out.map((e) => e.data)).toEqual(['a', '\uFEFFb']);
  });

  it('decodes invalid UTF-8 as U+FFFD instead of failing', () => {
    const framer = new SseFramer(1_000);
    const out = [...framer.push(new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0xff, 0x0a, 0x0a])), ...framer.push(undefined)];
    expect(out.map((e) => e.data)).toEqual(['\uFFFD']);
  });

  it('drops an unterminated last event and ignores comments', () => {
    expect(frame(': keep-alive\n\ndata: a\n\ndata: partial').events).toEqual([{ data: 'a' }]);
  });

  it('fails with invalid-response (field event) when one event outgrows the cap', () => {
    const framer = new SseFramer(100);
    expect(() => framer.push(enc.encode(`data: ${'x'.repeat(200)}`))).toThrow(expect.objectContaining({ kind: 'invalid-response', field: 'event' }));
  });

  it('does not count many small events in one chunk against the cap', () => {
    expect(frame('data: 0123456789\n\n'.repeat(50), 100).events).toHaveLength(50);
  });
});

describe.each(ENGINES)('$name engine: SSE over the wire', ({ make }) => {
  let server: FaultServer;
  let engine: HttpEngine;
  beforeAll(async () => {
    server = await startFaultServer();
    engine = make();
    server.route('/mixed', (_rq, rs) => {
      rs.writeHead(200, { 'content-type': 'text/event-stream' });
      rs.write('id: a\r\ndata: one\r\n\r\n');
      rs.write('data: two\rdata: lines\r\r');
      rs.end('event: error\ndata: {"x":1}\n\n');
    });
    server.route('/lone-cr-end', (_rq, rs) => {
      rs.writeHead(200, { 'content-type': 'text/event-stream' });
      rs.write('data: one\r\n\r');
      setTimeout(() => {
        rs.write('\ndata: last\r\n');
        setTimeout(() => rs.end('\r'), 5);
      }, 5);
    });
    server.route('/huge-event', (_rq, rs) => {
      rs.writeHead(200, { 'content-type': 'text/event-stream' });
      rs.write('data: ok\n\n');
      rs.write(`data: ${'y'.repeat(50_000)}`);
    });
  });
  afterAll(async () => {
    await engine.close();
    await server.close();
  });

  // First, so no kept-alive socket from an earlier test is open when counting server sockets.
  it('enforces maxEventBytes and closes the connection', async () => {
    const res = await engine.send(req(`${server.url}/huge-event`, { limits: { maxResponseBytes: 1_000_000, maxEventBytes: 10_000 } }));
    const seen: string[] = [];
    const { error } = await failure(async () => {
      for await (const e of sseEvents(res)) seen.push(e.data);
    });
    expect(seen).toEqual(['ok']);
    expect(error.kind).toBe('invalid-response');
    expect(error.field).toBe('event');
    await server.waitForNoSockets();
  });

  it('frames CRLF, CR, multi-line data, ids and event names', async () => {
    const res = await engine.send(req(`${server.url}/mixed`));
    const events: SseEvent[] = [];
    for await (const e of sseEvents(res)) events.push(e);
    expect(events).toEqual([{ id: 'a', data: 'one' }, { data: 'two\nlines' }, { event: 'error', data: '{"x":1}' }]);
    expect(res.lastEventId).toBe('a');
  });

  it('delivers the last event when the stream ends on a lone CR (its blank line), split from its LF', async () => {
    const res = await engine.send(req(`${server.url}/lone-cr-end`));
    const events: string[] = [];
    for await (const e of sseEvents(res)) events.push(e.data);
    expect(events).toEqual(['one', 'last']);
  });
});
