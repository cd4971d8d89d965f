/**
 * An undici dispatcher that answers in-process, without sockets: the bench agent's card, the
 * realistic Task for unary calls, and
 * streams whose SSE frames reach the client ONE FRAME PER READ (`write=frame`; `write=32k`: ~32 KB
 * of frames per read), each read in its own macrotask (setImmediate), exactly as a server flushing
 * each token would deliver them if the network never merged two frames. Read boundaries are therefore the same in every run, unlike loopback sockets
 * (where a client slowed by valgrind reads several frames at once), so the instruction mode can
 * count the per-read cost of each client exactly (workload `replay-frame`). Everything that is not
 * the network — undici's handler, the body stream, every client's own code — runs as it would.
 * Serves every contender: ours and raw take it as `dispatcher`, the official client through the
 * global dispatcher (`setGlobalDispatcher`), which Node's fetch uses. Both handler APIs of undici
 * (onRequestStart/onResponse* and the older onConnect/onHeaders/onData/onComplete) are spoken.
 */
import { agentCard } from './fixtures.mjs';
import { realisticUnaryBody, sizedStreamFrames } from './fixtures-realistic.mjs';
import { decodeRequest } from './workload-defs.mjs';

/** Reads a request body as undici hands it to a dispatcher (string, bytes or an async iterable). */
async function bodyText(body) {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  const chunks = [];
  for await (const c of body) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks).toString('utf8');
}

/** The handler calls of one response, for either handler API. */
function responder(handler) {
  const legacyApi = typeof handler.onHeaders === 'function' && typeof handler.onResponseStart !== 'function';
  const controller = { aborted: false, paused: false, reason: null, abort(reason) { this.aborted = true; this.reason = reason; }, pause() { this.paused = true; }, resume() { this.paused = false; } };
  const rawHeaders = (headers) => Object.entries(headers).flatMap(([k, v]) => [Buffer.from(k), Buffer.from(v)]);
  return {
    controller,
    connect() {
      if (legacyApi) handler.onConnect?.((reason) => controller.abort(reason));
      else handler.onRequestStart?.(controller, {});
    },
    start(status, headers) {
      if (legacyApi) handler.onHeaders(status, rawHeaders(headers), () => controller.resume(), 'OK');
      else handler.onResponseStart?.(controller, status, headers, 'OK');
    },
    data(chunk) {
      if (legacyApi) handler.onData(chunk);
      else handler.onResponseData?.(controller, chunk);
    },
    end() {
      if (legacyApi) handler.onComplete([]);
      else handler.onResponseEnd?.(controller, {});
    },
    fail(error) {
      if (legacyApi) handler.onError(error);
      else handler.onResponseError?.(controller, error);
    },
  };
}

/** The card at `/.well-known/agent-card.json` (v1.0 and v0.3) or `agent-card-v03.json` (v0.3 only). */
function cardBody(path) {
  // Port 40001 is never contacted (fetch refuses ports like 1 outright, before any dispatcher).
  const card = agentCard(40001, 'bench-replay');
  if (path.includes('v03')) card.supportedInterfaces = card.supportedInterfaces.filter((i) => i.protocolVersion === '0.3');
  return JSON.stringify(card);
}

/** Dispatcher of the `replay-*` workloads; `dispatch` never touches the network. */
export class ReplayDispatcher {
  dispatch(opts, handler) {
    const r = responder(handler);
    r.connect();
    this.#answer(opts, r).catch((error) => r.fail(error));
    return true;
  }

  async #answer(opts, r) {
    if (opts.method === 'GET') {
      await new Promise(setImmediate);
      r.start(200, { 'content-type': 'application/json' });
      r.data(Buffer.from(cardBody(String(opts.path))));
      r.end();
      return;
    }
    const msg = JSON.parse(await bodyText(opts.body));
    const text = msg.params?.message?.parts?.[0]?.text;
    if (msg.method === 'SendMessage' || msg.method === 'message/send') {
      const body = Buffer.from(realisticUnaryBody(JSON.stringify(msg.id ?? null), msg.method === 'message/send'));
      await new Promise(setImmediate);
      r.start(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      // Delivered in 16 KB reads, as a socket would hand over a body of this size.
      for (let at = 0; at < body.length; at += 16384) r.data(body.subarray(at, at + 16384));
      r.end();
      return;
    }
    const legacy = msg.method === 'message/stream';
    const spec = typeof text === 'string' ? decodeRequest(text) : null;
    if (!spec) throw new Error(`replay: not a stream request (${msg.method})`);
    const frames = sizedStreamFrames(JSON.stringify(msg.id ?? null), legacy, spec.text);
    const first = Buffer.from(frames.first);
    const update = Buffer.from(frames.update);
    const last = Buffer.from(frames.last);
    await new Promise(setImmediate);
    r.start(200, { 'content-type': 'text/event-stream' });
    r.data(first);
    // write=frame: one frame per read; write=32k: as many frames as fit in ~32 KB per read.
    const perRead = spec.write === 'frame' ? 1 : Math.max(1, Math.floor(32768 / update.length));
    const full = perRead === 1 ? update : Buffer.concat(Array.from({ length: perRead }, () => update));
    for (let sent = 0; sent < spec.events; sent += perRead) {
      await new Promise(setImmediate);
      if (r.controller.aborted) return;
      const n = Math.min(perRead, spec.events - sent);
      // A fresh view per read, as a socket hands out a fresh buffer per read.
      r.data(n === perRead ? full.subarray(0) : full.subarray(0, n * update.length));
    }
    await new Promise(setImmediate);
    if (r.controller.aborted) return;
    r.data(last);
    r.end();
  }

  close() {
    return Promise.resolve();
  }

  destroy() {
    return Promise.resolve();
  }
}
