/**
 * zod schemas for A2A v0.3 objects. They accept the v0.3 JSON-RPC shape (`kind` discriminators,
 * lowercase states) and, for the v0.3 REST binding, the v0.3 ProtoJSON shape the official server sends
 * there (`TASK_STATE_*`, `ROLE_*`, `content` instead of `parts`, `file.fileWithUri`). Response objects
 * are plain (strip) objects used through `checkWire`, which hands decoders the input itself, so unknown
 * fields survive in `raw` without zod copying them. Agent card objects are loose (`parseAgentCard`
 * reads zod's output). The hot-path objects have fast predicates that answer like these schemas in
 * `wire-types.ts`.
 */
import { lazy, z } from '../../util/lazy-zod.js';
import { cardExtension, commonCardFields } from '../card-fields.js';
import { countDefined } from '../validate.js';

const metadata = lazy(() => z.record(z.string(), z.unknown()));

/** v0.3 task state, lowercase or its ProtoJSON enum name. */
/** The names of the task state enum (what `V03TaskStateSchema` accepts). */
export const V03_TASK_STATES = [
  'submitted',
  'working',
  'input-required',
  'auth-required',
  'completed',
  'canceled',
  'failed',
  'rejected',
  'unknown',
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELLED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;
export const V03TaskStateSchema = lazy(() => z.enum(V03_TASK_STATES));

/** Validates a v0.3 `Role` from the wire (strip: see file comment). */
/** The names of the role enum (what `V03RoleSchema` accepts). */
export const V03_ROLES = ['user', 'agent', 'ROLE_USER', 'ROLE_AGENT', 'ROLE_UNSPECIFIED'] as const;
export const V03RoleSchema = lazy(() => z.enum(V03_ROLES));

/** v0.3 file content: `{bytes|uri,name?,mimeType?}` (JSON-RPC) or `{fileWithUri|fileWithBytes,mimeType?}` (ProtoJSON). */
export const V03FileSchema = lazy(() => z.object({
  bytes: z.optional(z.string()),
  uri: z.optional(z.string()),
  name: z.optional(z.string()),
  mimeType: z.optional(z.string()),
  fileWithUri: z.optional(z.string()),
  fileWithBytes: z.optional(z.string()),
}));

/** v0.3 Part: `{kind:'text'|'file'|'data', …}`; without `kind`, one of `text`, `file`, `data` (ProtoJSON). */
export const V03PartSchema = lazy(() => z
  .object({
    kind: z.optional(z.enum(['text', 'file', 'data'])),
    text: z.optional(z.string()),
    file: z.optional(V03FileSchema),
    data: z.optional(z.unknown()),
    metadata: z.optional(metadata),
  }).check(z.refine(
    (p) =>
      p.kind === 'text' ? p.text !== undefined : p.kind === 'file' ? p.file !== undefined : p.kind === 'data' ? p.data !== undefined
        : countDefined(p.text, p.file, p.data) === 1,
    { message: 'a Part needs its content (text, file or data)' },
  )));

/** Validates a v0.3 `Message` from the wire (strip: see file comment). */
export const V03MessageSchema = lazy(() => z
  .object({
    kind: z.optional(z.literal('message')),
    messageId: z.string(),
    role: V03RoleSchema,
    parts: z.optional(z.array(V03PartSchema)),
    content: z.optional(z.array(V03PartSchema)),
    contextId: z.optional(z.string()),
    taskId: z.optional(z.string()),
    referenceTaskIds: z.optional(z.array(z.string())),
    extensions: z.optional(z.array(z.string())),
    metadata: z.optional(metadata),
  }).check(z.refine((m) => m.parts !== undefined || m.content !== undefined, { message: 'a Message needs parts', path: ['parts'] })));

/** Validates a v0.3 `TaskStatus` from the wire (strip: see file comment). */
export const V03TaskStatusSchema = lazy(() => z.object({
  state: V03TaskStateSchema,
  message: z.optional(V03MessageSchema),
  update: z.optional(V03MessageSchema),
  timestamp: z.optional(z.string()),
}));

/** Validates a v0.3 `Artifact` from the wire (strip: see file comment). */
export const V03ArtifactSchema = lazy(() => z.object({
  artifactId: z.string(),
  name: z.optional(z.string()),
  description: z.optional(z.string()),
  parts: z.array(V03PartSchema),
  extensions: z.optional(z.array(z.string())),
  metadata: z.optional(metadata),
}));

/** Validates a v0.3 `Task` from the wire (strip: see file comment). */
export const V03TaskSchema = lazy(() => z.object({
  kind: z.optional(z.literal('task')),
  id: z.string(),
  contextId: z.string(),
  status: V03TaskStatusSchema,
  artifacts: z.optional(z.array(V03ArtifactSchema)),
  history: z.optional(z.array(V03MessageSchema)),
  metadata: z.optional(metadata),
}));

/** Validates a v0.3 `StatusUpdate` from the wire (strip: see file comment). */
export const V03StatusUpdateSchema = lazy(() => z.object({
  kind: z.optional(z.literal('status-update')),
  taskId: z.string(),
  contextId: z.string(),
  status: V03TaskStatusSchema,
  final: z.optional(z.boolean()),
  metadata: z.optional(metadata),
}));

/** Validates a v0.3 `ArtifactUpdate` from the wire (strip: see file comment). */
export const V03ArtifactUpdateSchema = lazy(() => z.object({
  kind: z.optional(z.literal('artifact-update')),
  taskId: z.string(),
  contextId: z.string(),
  artifact: V03ArtifactSchema,
  append: z.optional(z.boolean()),
  lastChunk: z.optional(z.boolean()),
  metadata: z.optional(metadata),
}));

/** Validates a v0.3 `PushConfig` from the wire (strip: see file comment). */
export const V03PushConfigSchema = lazy(() => z.object({
  id: z.optional(z.string()),
  url: z.string(),
  token: z.optional(z.string()),
  authentication: z.optional(z.object({ schemes: z.optional(z.array(z.string())), credentials: z.optional(z.string()) })),
}));

/** v0.3 `TaskPushNotificationConfig`; ProtoJSON names the task in `name: tasks/{id}/pushNotificationConfigs/{cid}`. */
export const V03TaskPushConfigSchema = lazy(() => z
  .object({ taskId: z.optional(z.string()), name: z.optional(z.string()), pushNotificationConfig: V03PushConfigSchema }).check(z.refine((c) => c.taskId !== undefined || c.name !== undefined, { message: 'missing taskId', path: ['taskId'] })));

/** v0.3 `AgentCard` (the fields the client uses). */
export const V03AgentCardSchema = lazy(() => z.looseObject({
  ...commonCardFields,
  url: z.string(),
  protocolVersion: z.optional(z.string()),
  preferredTransport: z.optional(z.string()),
  additionalInterfaces: z.optional(z.array(z.looseObject({ url: z.string(), transport: z.string() }))),
  capabilities: z.optional(z
    .looseObject({
      streaming: z.optional(z.boolean()),
      pushNotifications: z.optional(z.boolean()),
      stateTransitionHistory: z.optional(z.boolean()),
      extensions: z.optional(z.array(cardExtension)),
    })),
  supportsAuthenticatedExtendedCard: z.optional(z.boolean()),
}));

/** A validated wire `Part`. */
export type V03Part = z.infer<typeof V03PartSchema>;
/** A validated wire `Message`. */
export type V03Message = z.infer<typeof V03MessageSchema>;
/** A validated wire `Task`. */
export type V03Task = z.infer<typeof V03TaskSchema>;
/** A validated wire `Artifact`. */
export type V03Artifact = z.infer<typeof V03ArtifactSchema>;
/** A validated wire `TaskStatus`. */
export type V03TaskStatus = z.infer<typeof V03TaskStatusSchema>;
/** A validated wire `AgentCard`. */
export type V03AgentCard = z.infer<typeof V03AgentCardSchema>;
