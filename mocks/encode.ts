/**
 * Picks the wire encoding for a mock's version and binding.
 */
import type { ProtocolBinding, ProtocolVersion, StreamEvent, Task } from '../src/protocol/model.js';
import { v03Event, v03Task } from './wire-v03.js';
import { v1Task, v1Wrapped, type WireObject } from './wire-v1.js';

/** Encodes send results and stream items for one version/binding. */
export interface WireEncoder {
  /** A send result or stream item (v1.0 / v0.3 REST: wrapped; v0.3 JSON-RPC: bare with `kind`). */
  event(e: StreamEvent): WireObject;
  /** A bare Task (getTask, cancelTask). */
  task(t: Task): WireObject;
}

/** The encoder for `version` + `binding`. */
export function encoderFor(version: ProtocolVersion, binding: ProtocolBinding): WireEncoder {
  if (version === '1.0') return { event: v1Wrapped, task: v1Task };
  const style = binding === 'JSONRPC' ? 'jsonrpc' : binding === 'GRPC' ? 'grpc' : 'proto';
  return { event: (e) => v03Event(e, style), task: (t) => v03Task(t, style) };
}
