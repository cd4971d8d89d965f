/**
 * v0.3 wire objects on the hot path (every stream event, every task read): each schema of
 * `schemas.ts` paired with the predicate that answers like it (see `../wire-check.ts`).
 */
import { countDefined } from '../validate.js';
import { areOptionalStrings, artifactOf, artifactUpdateOf, isObject, isOptionalArrayOf, isOptionalMetadata } from '../wire-check.js';
import { isOptionalString, isString, oneOf, statusUpdateOf, taskOf, WireType } from '../wire-check.js';
import { V03_ROLES, V03_TASK_STATES, V03ArtifactUpdateSchema, V03MessageSchema, V03StatusUpdateSchema, V03TaskSchema } from './schemas.js';

const isRole = oneOf(V03_ROLES);
const isState = oneOf(V03_TASK_STATES);

function isFile(f: unknown): boolean {
  return isObject(f) && areOptionalStrings(f.bytes, f.uri, f.name, f.mimeType, f.fileWithUri, f.fileWithBytes);
}

/** `kind` says which content a part needs; without it (ProtoJSON), exactly one of text, file, data. */
function hasContent(p: Record<string, unknown>): boolean {
  switch (p.kind) {
    case undefined:
      return countDefined(p.text, p.file, p.data) === 1;
    case 'text':
      return p.text !== undefined;
    case 'file':
      return p.file !== undefined;
    case 'data':
      return p.data !== undefined;
    default:
      return false;
  }
}

function isPart(p: unknown): boolean {
  return isObject(p) && isOptionalString(p.text) && (p.file === undefined || isFile(p.file)) && isOptionalMetadata(p.metadata) && hasContent(p);
}

function isMessage(m: unknown): boolean {
  return (
    isObject(m) &&
    (m.kind === undefined || m.kind === 'message') &&
    isString(m.messageId) &&
    isRole(m.role) &&
    isOptionalArrayOf(m.parts, isPart) &&
    isOptionalArrayOf(m.content, isPart) &&
    areOptionalStrings(m.contextId, m.taskId) &&
    isOptionalArrayOf(m.referenceTaskIds, isString) &&
    isOptionalArrayOf(m.extensions, isString) &&
    isOptionalMetadata(m.metadata) &&
    (m.parts !== undefined || m.content !== undefined)
  );
}

function isStatus(s: unknown): boolean {
  return (
    isObject(s) &&
    isState(s.state) &&
    (s.message === undefined || isMessage(s.message)) &&
    (s.update === undefined || isMessage(s.update)) &&
    isOptionalString(s.timestamp)
  );
}

const isArtifact = artifactOf(isPart);

/** `Message`. */
export const V03Message = new WireType(V03MessageSchema, isMessage);

/** `Task`. */
export const V03Task = new WireType(V03TaskSchema, taskOf('task', isStatus, isArtifact, isMessage));

/** `TaskStatusUpdateEvent`. */
export const V03StatusUpdate = new WireType(V03StatusUpdateSchema, statusUpdateOf('status-update', isStatus));

/** `TaskArtifactUpdateEvent`. */
export const V03ArtifactUpdate = new WireType(V03ArtifactUpdateSchema, artifactUpdateOf('artifact-update', isArtifact));
