/**
 * The settings a client's calls run under: the four timeout layers, the caps on what a peer can make
 * the client buffer, their defaults, and how overrides are laid over them. Imported by the engine's
 * interface (`engine.ts`) and by `deadline-name.ts`, it imports neither.
 */
import { A2AClientError } from '../errors/a2a-client-error.js';

/** The four timeout layers. Each fires as its own error kind. */
export interface Timeouts {
  /**
   * Bounds opening the connection (TCP + TLS). Fires `connect-timeout`; nothing was sent.
   * @default 5000
   */
  connectMs: number;
  /**
   * Bounds waiting for response headers and each gap between chunks of a unary body. Fires
   * `read-timeout`.
   * @default 60000
   */
  readMs: number;
  /**
   * Bounds the gap between two SSE events of a stream. Fires `idle-timeout`.
   * @default 60000
   */
  streamIdleMs: number;
  /**
   * One deadline over the whole call: every attempt and every backoff wait. Fires `deadline-exceeded`.
   * @default 120000
   */
  totalMs: number;
}

/** The defaults of {@link Timeouts}. */
export const DEFAULT_TIMEOUTS: Readonly<Timeouts> = Object.freeze({
  connectMs: 5_000,
  readMs: 60_000,
  streamIdleMs: 60_000,
  totalMs: 120_000,
});

/**
 * `base` with the numbers of each override over it, later ones winning; an `undefined` field is no
 * override (an optional setting passed through as `undefined` keeps the value below it).
 * @throws A2AClientError kind `unsupported` (field `timeouts.<name>` / `limits.<name>`) for a value
 * that is not a number ≥ 0 (`NaN`, negative, a string); `Infinity` is allowed (no bound).
 */
export function withSettings<T extends object>(what: 'timeouts' | 'limits', base: Readonly<T>, ...overrides: Array<Partial<T> | undefined>): T {
  const out = { ...base };
  for (const override of overrides) {
    if (override === undefined) continue;
    for (const [name, value] of Object.entries(override) as Array<[keyof T & string, unknown]>) {
      if (value === undefined) continue;
      if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
        throw new A2AClientError({ kind: 'unsupported', message: `${what}.${name} must be a number ≥ 0, got ${typeof value === 'number' ? String(value) : typeof value}`, field: `${what}.${name}` });
      }
      (out as Record<string, unknown>)[name] = value;
    }
  }
  return out;
}

/** Caps on what an untrusted peer can make the client buffer. */
export interface Limits {
  /**
   * Largest unary response body; beyond it the call fails with `invalid-response`.
   * @default 16 MiB
   */
  maxResponseBytes: number;
  /**
   * Largest single SSE event, in bytes as received: its lines and their line ends (comments included),
   * from the blank line before it to the one that ends it. Beyond it the stream fails with
   * `invalid-response` (field `event`), after the events before it; however the stream is chunked.
   * @default 4 MiB
   */
  maxEventBytes: number;
}

/** The defaults of {@link Limits}. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxResponseBytes: 16 * 1024 * 1024,
  maxEventBytes: 4 * 1024 * 1024,
});
