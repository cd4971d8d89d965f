/**
 * What the routers need from a mock agent: its identity, and `run`, which records the call, picks the
 * scenario (queued first, then the method's default, then the built-in) and answers.
 */
import type { ProtocolBinding, ProtocolVersion } from '../src/protocol/model.js';
import type { MockMethod } from './scenarios.js';

/** One call a mock received. */
export interface MockCall {
  /** The method called, by its client-side name (`sendMessage`, `getTask`, …). */
  method: MockMethod;
  /** The method as sent: `SendMessage`, `message/send`, `POST /message:send`, … */
  wireMethod: string;
  /** JSON-RPC params, or the REST body merged with path / query ids. */
  params: unknown;
  /** Request headers, lower-cased names. */
  headers: Record<string, string>;
  /** JSON-RPC request id (JSON-RPC only). */
  rpcId?: string | number | null;
  /** `Date.now()` when received. */
  at: number;
}

/** The router-facing side of a mock agent. */
export interface MockCore {
  readonly version: ProtocolVersion;
  readonly binding: ProtocolBinding;
  readonly streaming: boolean;
  /** Answers one call (never rejects). */
  run(call: Omit<MockCall, 'at'>, signal: AbortSignal): Promise<Response>;
}

/** Request headers as a plain object. */
export function headersOf(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}
