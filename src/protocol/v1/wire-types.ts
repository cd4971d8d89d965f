/**
 * v1.0 wire objects on the hot path (every stream event, every task read): each schema of
 * `schemas.ts` paired with the predicate that answers like it (see `../wire-check.ts`).
 */
import { countDefined } from '../validate.js';
import {
  areOptionalStrings,
  artifactOf,
  artifactUpdateOf,
  isArrayOf,
  isObject,
  isOptionalArrayOf,
  isOptionalMetadata,
  isOptionalString,
  isString,
  oneOf,
  statusUpdateOf,
  taskOf,
  WireType,
} from '../wire-check.js';
import {
  V1ArtifactUpdateSchema,
  V1_ROLES,
  V1_TASK_STATES,
  V1MessageSchema,
  V1SendMessageResponseSchema,
  V1StatusUpdateSchema,
  V1StreamResponseSchema,
  V1TaskSchema,
} from './schemas.js';

const isRole = oneOf(V1_ROLES);
const isState = oneOf(V1_TASK_STATES);

function isPart(p: unknown): boolean {
  return (
    isObject(p) &&
    areOptionalStrings(p.text, p.raw, p.url, p.filename, p.mediaType) &&
    isOptionalMetadata(p.metadata) &&
    countDefined(p.text, p.raw, p.url, p.data) === 1
  );
}

function isMessage(m: unknown): boolean {
  return (
    isObject(m) &&
    isString(m.messageId) &&
    isRole(m.role) &&
    isArrayOf(m.parts, isPart) &&
    areOptionalStrings(m.contextId, m.taskId) &&
    isOptionalArrayOf(m.referenceTaskIds, isString) &&
    isOptionalArrayOf(m.extensions, isString) &&
    isOptionalMetadata(m.metadata)
  );
}

function isStatus(s: unknown): boolean {
  return isObject(s) && isState(s.state) && (s.message === undefined || isMessage(s.message)) && isOptionalString(s.timestamp);
}

const isArtifact = artifactOf(isPart);
const isTask = taskOf(undefined, isStatus, isArtifact, isMessage);
const isStatusUpdate = statusUpdateOf(undefined, isStatus);
const isArtifactUpdate = artifactUpdateOf(undefined, isArtifact);

/** `Message`. */
export const V1Message = new WireType(V1MessageSchema, isMessage);
/** `Task`. */
export const V1Task = new WireType(V1TaskSchema, isTask);
/** `TaskStatusUpdateEvent`. */
export const V1StatusUpdate = new WireType(V1StatusUpdateSchema, isStatusUpdate);
/** `TaskArtifactUpdateEvent`. */
export const V1ArtifactUpdate = new WireType(V1ArtifactUpdateSchema, isArtifactUpdate);

/** `SendMessageResponse`: exactly one of `task`, `message`. */
export const V1SendMessageResponse = new WireType(
  V1SendMessageResponseSchema,
  (r) =>
    isObject(r) &&
    (r.task === undefined || isTask(r.task)) &&
    (r.message === undefined || isMessage(r.message)) &&
    countDefined(r.task, r.message) === 1,
);

/** `StreamResponse`: exactly one of `task`, `message`, `statusUpdate`, `artifactUpdate`. */
export const V1StreamResponse = new WireType(V1StreamResponseSchema, (r) => {
  if (!isObject(r) || countDefined(r.task, r.message, r.statusUpdate, r.artifactUpdate) !== 1) return false;
  if (r.artifactUpdate !== undefined) return isArtifactUpdate(r.artifactUpdate);
  if (r.statusUpdate !== undefined) return isStatusUpdate(r.statusUpdate);
  if (r.task !== undefined) return isTask(r.task);
  return isMessage(r.message);
});
