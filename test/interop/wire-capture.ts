/**
 * Records HTTP exchanges with the official server as plain data, with volatile values (UUIDs,
 * timestamps, the ephemeral port) replaced by stable placeholders, so they can be compared with and
 * saved as fixtures in `test/interop/fixtures/*.json`. Set `A2A_UPDATE_FIXTURES=1` to rewrite them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createParser } from 'eventsource-parser';
import { z } from 'zod';

/** The directory holding the captured fixtures. */
export const FIXTURES_DIR = new URL('./fixtures/', import.meta.url);

/** One SSE event as sent: its `event:` field (when present) and its parsed `data:`. */
export interface SseFrame {
  event?: string;
  data: unknown;
}

/** A recorded exchange. `body` for JSON answers, `raw` + `frames` for SSE answers. */
export interface Capture {
  request: { method: string; path: string; headers: Record<string, string>; body?: unknown };
  response: { status: number; contentType: string | null; body?: unknown; raw?: string; frames?: SseFrame[] };
}

/** A request to send: path relative to the server's base URL. */
export interface WireRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;
/** Port placeholder used in fixtures instead of the ephemeral port. */
export const FIXTURE_BASE_URL = 'http://127.0.0.1:41241';

/** Replaces UUIDs (numbered by first appearance), timestamps and the base URL with stable values. */
export function normalize(value: unknown, baseUrl: string): unknown {
  const ids = new Map<string, string>();
  const text = JSON.stringify(value)
    .replaceAll(baseUrl, FIXTURE_BASE_URL)
    .replace(UUID, (id) => {
      let stable = ids.get(id);
      if (stable === undefined) {
        stable = `00000000-0000-4000-8000-${String(ids.size + 1).padStart(12, '0')}`;
        ids.set(id, stable);
      }
      return stable;
    })
    .replace(ISO_TIME, '2026-01-01T00:00:00.000Z');
  return JSON.parse(text);
}

/** Splits an SSE body into frames with eventsource-parser; throws if a `data:` is not JSON. */
export function parseSse(raw: string): SseFrame[] {
  const frames: SseFrame[] = [];
  const parser = createParser({
    onEvent: (ev) => frames.push(ev.event === undefined ? { data: JSON.parse(ev.data) } : { event: ev.event, data: JSON.parse(ev.data) }),
  });
  parser.feed(raw);
  return frames;
}

/** Sends one request with `fetch` and records it; SSE bodies are read to the end. */
export async function exchange(baseUrl: string, req: WireRequest): Promise<Capture> {
  const headers = { ...(req.body === undefined ? {} : { 'content-type': 'application/json' }), ...req.headers };
  const res = await fetch(`${baseUrl}${req.path}`, {
    method: req.method, headers, body: req.body === undefined ? undefined : JSON.stringify(req.body),
  });
  return record(req, headers, res);
}

/** Records an already received response (e.g. a stream opened before another call). */
export async function record(req: WireRequest, headers: Record<string, string>, res: Response): Promise<Capture> {
  const contentType = res.headers.get('content-type');
  const request = { method: req.method, path: req.path, headers, ...(req.body === undefined ? {} : { body: req.body }) };
  const text = await res.text();
  if (contentType?.startsWith('text/event-stream') === true) {
    return { request, response: { status: res.status, contentType, raw: text, frames: parseSse(text) } };
  }
  return { request, response: { status: res.status, contentType, body: text === '' ? undefined : JSON.parse(text) } };
}

const captureFile = z.looseObject({ request: z.unknown(), response: z.unknown() });

/**
 * Normalises `capture` and returns it together with the stored fixture `name` (rewritten first when
 * `A2A_UPDATE_FIXTURES=1`). Throws when the fixture does not exist.
 */
export function withFixture(name: string, capture: Capture, baseUrl: string): { actual: unknown; expected: unknown } {
  const actual = normalize(capture, baseUrl);
  const file = new URL(`${name}.json`, FIXTURES_DIR);
  if (process.env.A2A_UPDATE_FIXTURES === '1') {
    writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
  }
  if (!existsSync(file)) throw new Error(`fixture ${name}.json is missing: run with A2A_UPDATE_FIXTURES=1`);
  const expected = captureFile.parse(JSON.parse(readFileSync(file, 'utf8')));
  return { actual, expected };
}
