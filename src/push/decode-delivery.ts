import type { StreamEvent } from '../protocol/model.js';
import { decodeV03Event } from '../protocol/v03/codec.js';
import { decodeV1StreamEvent } from '../protocol/v1/codec.js';
import { v1Wire } from '../protocol/v1/decode.js';
import { V1Task } from '../protocol/v1/wire-types.js';
import { checkWire } from '../protocol/validate.js';
import { isObject } from '../protocol/wire-check.js';
import { provideZod } from '../util/lazy-zod.js';
import { zodSubset } from '../util/zod-subset.js';

// The protocol schemas load zod lazily with require(); this entry may run where there is none
// (any runtime with web-standard Request/Response), so it hands over the zod members it imports.
provideZod(zodSubset);

type Decoder = (json: unknown) => StreamEvent;

const FIELD = 'body';
const v1Envelope: Decoder = (json) => decodeV1StreamEvent(json, FIELD);
const v1BareTask: Decoder = (json) => v1Wire.task(checkWire(V1Task, json, FIELD));
const v03: Decoder = (json) => decodeV03Event(json, FIELD);

/**
 * One push-notification body → the model, with the codecs' own stream-event decoders (no schema of
 * its own). What agents post:
 * - v1.0: a `StreamResponse` — `{ task | message | statusUpdate | artifactUpdate }` (the official
 *   `@a2a-js/sdk` sender), or a bare v1.0 `Task`;
 * - v0.3: a `kind`-discriminated object (the official compat sender posts whole Task snapshots), or
 *   the v0.3 ProtoJSON shape.
 * An object with `kind` is v0.3; otherwise the v1.0 readings are tried first, then v0.3.
 * @throws A2AClientError `invalid-response` naming the offending field (under `body`), from the
 * reading most likely meant.
 */
export function decodeDelivery(json: unknown): StreamEvent {
  if (!isObject(json) || typeof json.kind === 'string') return v03(json);
  const candidates: Decoder[] = [];
  if (json.task !== undefined || json.message !== undefined || json.statusUpdate !== undefined || json.artifactUpdate !== undefined) candidates.push(v1Envelope);
  else if (json.id !== undefined && json.status !== undefined) candidates.push(v1BareTask);
  candidates.push(v03);
  let first: unknown;
  for (const decode of candidates) {
    try {
      return decode(json);
    } catch (error) {
      // The next reading may fit; the first reading's error is the one reported.
      first ??= error;
    }
  }
  throw first;
}

/** The task a delivery is about (`undefined` for a Message outside any task). */
export function taskIdOf(event: StreamEvent): string | undefined {
  if (event.kind === 'task') return event.id;
  return event.taskId === '' ? undefined : event.taskId;
}
