/**
 * The floor of reading one SSE response body in Node (issue 26, "find the real floor first"): the same
 * stream read five ways, each decoding with one streaming TextDecoder, framing with eventsource-parser
 * and JSON.parse per event, nothing else —
 *   rawDispatch  undici `Agent.dispatch` with a handler object: each network read's bytes arrive in
 *                `onResponseData` and go straight into the framer (no stream object, no promise per read)
 *   rawStream    `undici.stream`: a Writable from the factory receives each read
 *   raw          `undici.request` + `for await` over the body Readable (the bench's raw contender)
 *   rawFetch     the global `fetch` + `body.getReader()` (a ReadableStream; what the official client does)
 *   rawCoalesce  rawDispatch holding the connection for COALESCE_MS after a small read that follows another
 *                within it (sockets with a 4 KB buffer): the read path our undici engine takes for event streams
 * Opened by `workload-clients.mjs` like the other contenders; `node bench/workloads.mjs per-frame
 * raw,rawDispatch,rawStream,rawFetch,official,ssm` measures them side by side.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Agent, buildConnector, stream as undiciStream } from 'undici';
import { createParser } from 'eventsource-parser';
import { rpcUrlOf } from './raw.mjs';

let nextId = 0;

function requestBody(text, legacy) {
  const message = legacy
    ? { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }] }
    : { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
  return JSON.stringify({ jsonrpc: '2.0', id: ++nextId, method: legacy ? 'message/stream' : 'SendStreamingMessage', params: { message } });
}

/** A framer: `feed(bytes)` decodes, frames and parses; `count` is the number of results seen. */
function framer() {
  const state = { count: 0 };
  const parser = createParser({
    onEvent(ev) {
      if (JSON.parse(ev.data).result) state.count++;
    },
  });
  const decoder = new TextDecoder();
  state.feed = (bytes) => parser.feed(decoder.decode(bytes, { stream: true }));
  return state;
}

/** Opens read path `kind` against the agent at `baseUrl`; `{ stream(n, text), close() }`. */
export async function openReadPath(kind, baseUrl, w, dispatcher) {
  const legacy = Boolean(w.legacy);
  const rpcUrl = await rpcUrlOf(baseUrl, legacy ? '0.3' : '1.0');
  // rawCoalesce holds the connection as ours does, over sockets with the same 4 KB buffer (SOCKET_HWM overrides).
  const hwm = kind === 'rawCoalesce' || process.env.SOCKET_HWM ? { connect: buildConnector({ highWaterMark: Number(process.env.SOCKET_HWM ?? 4096) }) } : {};
  const agent = dispatcher ?? new Agent({ keepAliveTimeout: 60_000, bodyTimeout: 0, headersTimeout: 0, ...hwm });
  const url = new URL(rpcUrl);
  const headers = { 'content-type': 'application/json', accept: 'text/event-stream', 'a2a-version': legacy ? '0.3' : '1.0' };

  const COALESCE_MS = Number(process.env.COALESCE_MS ?? 1);
  const COALESCE_BYTES = Number(process.env.COALESCE_BYTES ?? 8192);
  /** Bytes straight into the framer; with `hold`, a small read soon after another pauses the response for COALESCE_MS. */
  const viaDispatch = (text, hold = false) =>
    new Promise((resolve, reject) => {
      const f = framer();
      let last = 0;
      let burst = 0;
      let timer;
      const endBurst = (controller) => {
        const now = performance.now();
        const small = burst < COALESCE_BYTES;
        burst = 0;
        if (timer === undefined && small && now - last < COALESCE_MS) {
          controller.pause();
          timer = setTimeout(() => {
            timer = undefined;
            controller.resume();
          }, COALESCE_MS);
        }
        last = now;
      };
      agent.dispatch(
        { origin: url.origin, path: url.pathname + url.search, method: 'POST', headers, body: requestBody(text, legacy) },
        {
          onRequestStart() {},
          onResponseStart(_controller, statusCode) {
            if (statusCode !== 200) reject(new Error(`status ${statusCode}`));
          },
          onResponseData(controller, chunk) {
            f.feed(chunk);
            if (!hold) return;
            burst += chunk.byteLength;
            if (burst === chunk.byteLength) queueMicrotask(() => endBurst(controller));
          },
          onResponseEnd() {
            resolve(f.count);
          },
          onResponseError(_controller, err) {
            reject(err);
          },
        },
      );
    });

  const viaStream = async (text) => {
    const f = framer();
    await undiciStream(rpcUrl, { method: 'POST', dispatcher: agent, headers, body: requestBody(text, legacy) }, ({ statusCode }) => {
      if (statusCode !== 200) throw new Error(`status ${statusCode}`);
      return new Writable({
        write(chunk, _enc, cb) {
          f.feed(chunk);
          cb();
        },
      });
    });
    return f.count;
  };

  const viaFetch = async (text) => {
    const f = framer();
    const res = await fetch(rpcUrl, { method: 'POST', headers, body: requestBody(text, legacy) });
    if (res.status !== 200) throw new Error(`status ${res.status}`);
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      f.feed(value);
    }
    return f.count;
  };

  const read = { rawCoalesce: (text) => viaDispatch(text, true), rawDispatch: viaDispatch, rawStream: viaStream, rawFetch: viaFetch }[kind];
  if (!read) throw new Error(`unknown read path "${kind}"`);
  return { stream: (_n, text) => read(text), close: () => (dispatcher ? undefined : agent.close()) };
}
