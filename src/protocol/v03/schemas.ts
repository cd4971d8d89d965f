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
  bytes: z.string().optional(),
  uri: z.string().optional(),
  name: z.string().optional(),
  mimeType: z.string().optional(),
  fileWithUri: z.string().optional(),
  fileWithBytes: z.string().optional(),
}));

/** v0.3 Part: `{kind:'text'|'file'|'data', …}`; without `kind`, one of `text`, `file`, `data` (ProtoJSON). */
export const V03PartSchema = lazy(() => z
  .object({
    kind: z.enum(['text', 'file', 'data']).optional(),
    text: z.string().optional(),
    file: V03FileSchema.optional(),
    data: z.unknown().optional(),
    metadata: metadata.optional(),
  })
  .refine(
    (p) =>
      p.kind === 'text' ? p.text !== undefined : p.kind === 'file' ? p.file !== undefined : p.kind === 'data' ? p.data !== undefined
        : countDefined(p.text, p.file, p.data) === 1,
    { message: 'a Part needs its content (text, file or data)' },
  ));

/** Validates a v0.3 `Message` from the wire (strip: see file comment). */
export const V03MessageSchema = lazy(() => z
  .object({
    kind: z.literal('message').optional(),
    messageId: z.string(),
    role: V03RoleSchema,
    parts: z.array(V03PartSchema).optional(),
    content: z.array(V03PartSchema).optional(),
    contextId: z.string().optional(),
    taskId: z.string().optional(),
    referenceTaskIds: z.array(z.string()).optional(),
    extensions: z.array(z.string()).optional(),
    metadata: metadata.optional(),
  })
  .refine((m) => m.parts !== undefined || m.content !== undefined, { message: 'a Message needs parts', path: ['parts'] }));

/** Validates a v0.3 `TaskStatus` from the wire (strip: see file comment). */
export const V03TaskStatusSchema = lazy(() => z.object({
  state: V03TaskStateSchema,
  message: V03MessageSchema.optional(),
  update: V03MessageSchema.optional(),
  timestamp: z.string().optional(),
}));

/** Validates a v0.3 `Artifact` from the wire (strip: see file comment). */
export const V03ArtifactSchema = lazy(() => z.object({
  artifactId: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(V03PartSchema),
  extensions: z.array(z.string()).optional(),
  metadata: metadata.optional(),
}));

/** Validates a v0.3 `Task` from the wire (strip: see file comment). */
export const V03TaskSchema = lazy(() => z.object({
  kind: z.literal('task').optional(),
  id: z.string(),
  contextId: z.string(),
  status: V03TaskStatusSchema,
  artifacts: z.array(V03ArtifactSchema).optional(),
  history: z.array(V03MessageSchema).optional(),
  metadata: metadata.optional(),
}));

/** Validates a v0.3 `StatusUpdate` from the wire (strip: see file comment). */
export const V03StatusUpdateSchema = lazy(() => z.object({
  kind: z.literal('status-update').optional(),
  taskId: z.string(),
  contextId: z.string(),
  status: V03TaskStatusSchema,
  final: z.boolean().optional(),
  metadata: metadata.optional(),
}));

/** Validates a v0.3 `ArtifactUpdate` from the wire (strip: see file comment). */
export const V03ArtifactUpdateSchema = lazy(() => z.object({
  kind: z.literal('artifact-update').optional(),
  taskId: z.string(),
  contextId: z.string(),
  artifact: V03ArtifactSchema,
  append: z.boolean().optional(),
  lastChunk: z.boolean().optional(),
  metadata: metadata.optional(),
}));

/** Validates a v0.3 `PushConfig` from the wire (strip: see file comment). */
export const V03PushConfigSchema = lazy(() => z.object({
  id: z.string().optional(),
  url: z.string(),
  token: z.string().optional(),
  authentication: z.object({ schemes: z.array(z.string()).optional(), credentials: z.string().optional() }).optional(),
}));

/** v0.3 `TaskPushNotificationConfig`; ProtoJSON names the task in `name: tasks/{id}/pushNotificationConfigs/{cid}`. */
export const V03TaskPushConfigSchema = lazy(() => z
  .object({ taskId: z.string().optional(), name: z.string().optional(), pushNotificationConfig: V03PushConfigSchema })
  .refine((c) => c.taskId !== undefined || c.name !== undefined, { message: 'missing taskId', path: ['taskId'] }));

/** v0.3 `AgentCard` (the fields the client uses). */
export const V03AgentCardSchema = lazy(() => z.looseObject({
  ...commonCardFields,
  url: z.string(),
  protocolVersion: z.string().optional(),
  preferredTransport: z.string().optional(),
  additionalInterfaces: z.array(z.looseObject({ url: z.string(), transport: z.string() })).optional(),
  capabilities: z
    .looseObject({
      streaming: z.boolean().optional(),
      pushNotifications: z.boolean().optional(),
      stateTransitionHistory: z.boolean().optional(),
      extensions: z.array(cardExtension).optional(),
    })
    .optional(),
  supportsAuthenticatedExtendedCard: z.boolean().optional(),
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
