import { z } from 'zod';

/** Latest `Date.now()` a record may carry (the largest valid JS date). */
const MAX_TIME = 8.64e15;

const breakerRecordSchema = z.strictObject({
  v: z.literal(1),
  state: z.enum(['open', 'closed']),
  /** `Date.now()` of the opening this record is about (for `closed`: the opening the probe ended). */
  openedAt: z.number().int().min(0).max(MAX_TIME),
  /** Id of the process that wrote it. */
  by: z.string().min(1).max(128),
});

const breakerMessageSchema = breakerRecordSchema.extend({ origin: z.string().min(1).max(2048) });

/** The fleet's breaker state of one agent, as stored under `<prefix>breaker:<origin>`. */
export type BreakerRecord = z.infer<typeof breakerRecordSchema>;

/** A breaker transition as published on `<prefix>events`. */
export type BreakerMessage = z.infer<typeof breakerMessageSchema>;

/** JSON text of a value, or `undefined` when it is not valid JSON (never throws). */
function parseJson(text: unknown): unknown {
  if (typeof text !== 'string' || text.length > 4096) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON (JSON.parse throws nothing else): foreign or corrupt data, ignored by the caller.
    return undefined;
  }
}

/** A stored breaker record, or `undefined` for anything else (absent, foreign, corrupt). Never throws. */
export function parseBreakerRecord(text: unknown): BreakerRecord | undefined {
  const parsed = breakerRecordSchema.safeParse(parseJson(text));
  return parsed.success ? parsed.data : undefined;
}

/** A published breaker message, or `undefined` for anything else. Never throws. */
export function parseBreakerMessage(text: unknown): BreakerMessage | undefined {
  const parsed = breakerMessageSchema.safeParse(parseJson(text));
  return parsed.success ? parsed.data : undefined;
}

/**
 * A counter's value: a non-negative safe integer given as a number or a decimal string; `undefined`
 * for anything else (foreign or corrupt), `0` for an absent key (`null`).
 */
export function parseCount(value: unknown): number | undefined {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return undefined;
  return Number(value);
}
