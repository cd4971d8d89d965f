/**
 * Fast predicates for the wire objects every stream event carries, written against the A2A schema
 * (the zod schemas of `v1/schemas.ts` and `v03/schemas.ts` are the reference). A predicate answers
 * what the schema's `safeParse(value).success` answers for any value `JSON.parse` can produce, without
 * building zod's output or issues; `checkWire` runs zod when a predicate says no, so every error is
 * zod's. Predicates read members by name (`value.taskId`), never through a table of keys: a keyed
 * read over many object shapes is as slow as zod itself. The property test `test/protocol/wire-check.property.test.ts` holds each predicate to its
 * schema over random valid and invalid payloads.
 */
import type { z } from '../util/lazy-zod.js';

/** A predicate over a value parsed from JSON. */
export type Check = (value: unknown) => boolean;

/** A wire object's schema with the predicate that answers like it (see file comment). */
export class WireType<S extends z.ZodType> {
  constructor(
    readonly schema: S,
    readonly test: Check,
  ) {}
}

/** A JSON object (not an array, not null), as zod's object and record schemas take it. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `z.string()`. */
export const isString: Check = (value) => typeof value === 'string';

/** `z.boolean()`. */
export const isBoolean: Check = (value) => typeof value === 'boolean';

/** `z.number()`: finite. */
export const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);

/** `z.record(z.string(), z.unknown())` over JSON: any object. */
export const isMetadata: Check = isObject;

/** `z.string().optional()`. */
export function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** Each of up to six `z.string().optional()` members (a member not passed reads as absent). */
export function areOptionalStrings(a: unknown, b?: unknown, c?: unknown, d?: unknown, e?: unknown, f?: unknown): boolean {
  return isOptionalString(a) && isOptionalString(b) && isOptionalString(c) && isOptionalString(d) && isOptionalString(e) && isOptionalString(f);
}

/** `z.boolean().optional()`. */
export function isOptionalBoolean(value: unknown): boolean {
  return value === undefined || typeof value === 'boolean';
}

/** `metadata.optional()`. */
export function isOptionalMetadata(value: unknown): boolean {
  return value === undefined || isObject(value);
}

/** `z.array(element)`. */
export function isArrayOf(value: unknown, element: Check): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (!element(item)) return false;
  return true;
}

/** `z.array(element).optional()`. */
export function isOptionalArrayOf(value: unknown, element: Check): boolean {
  return value === undefined || isArrayOf(value, element);
}

/** `z.enum(values)` / `z.literal(value)`: a predicate over the allowed values. */
export function oneOf(values: readonly unknown[]): Check {
  const set = new Set(values);
  return (value) => set.has(value);
}

/** An optional `kind` literal (v0.3 JSON-RPC): absent, or `kind`; `undefined` when the version has none. */
function hasKind(value: Record<string, unknown>, kind: string | undefined): boolean {
  return kind === undefined || value.kind === undefined || value.kind === kind;
}

/** `Artifact` of either version, over its version's part. */
export function artifactOf(isPart: Check): Check {
  return (a) =>
    isObject(a) &&
    isString(a.artifactId) &&
    isOptionalString(a.name) &&
    isOptionalString(a.description) &&
    isArrayOf(a.parts, isPart) &&
    isOptionalArrayOf(a.extensions, isString) &&
    isOptionalMetadata(a.metadata);
}

/** `Task` of either version (`kind`: v0.3's literal), over its version's status, artifact and message. */
export function taskOf(kind: string | undefined, isStatus: Check, isArtifact: Check, isMessage: Check): Check {
  return (t) =>
    isObject(t) &&
    hasKind(t, kind) &&
    isString(t.id) &&
    isString(t.contextId) &&
    isStatus(t.status) &&
    isOptionalArrayOf(t.artifacts, isArtifact) &&
    isOptionalArrayOf(t.history, isMessage) &&
    isOptionalMetadata(t.metadata);
}

/** `TaskStatusUpdateEvent` of either version (v0.3: `kind` and `final`). */
export function statusUpdateOf(kind: string | undefined, isStatus: Check): Check {
  return (u) =>
    isObject(u) &&
    hasKind(u, kind) &&
    isString(u.taskId) &&
    isString(u.contextId) &&
    isStatus(u.status) &&
    (kind === undefined || isOptionalBoolean(u.final)) &&
    isOptionalMetadata(u.metadata);
}

/** `TaskArtifactUpdateEvent` of either version (v0.3: `kind`). */
export function artifactUpdateOf(kind: string | undefined, isArtifact: Check): Check {
  return (u) =>
    isObject(u) &&
    hasKind(u, kind) &&
    isString(u.taskId) &&
    isString(u.contextId) &&
    isArtifact(u.artifact) &&
    isOptionalBoolean(u.append) &&
    isOptionalBoolean(u.lastChunk) &&
    isOptionalMetadata(u.metadata);
}
