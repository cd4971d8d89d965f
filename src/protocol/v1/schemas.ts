/**
 * zod schemas for A2A v1.0 ProtoJSON as it arrives on the wire; only what the model needs is checked.
 * Response objects are plain (strip) objects used through `checkWire`, which hands decoders the input
 * itself, so unknown fields and extensions survive in `raw` without zod copying them. Agent card
 * objects are loose (`parseAgentCard` reads zod's output). The hot-path objects have fast predicates
 * that answer like these schemas in `wire-types.ts`.
 */
import { lazy, z } from '../../util/lazy-zod.js';
import { cardExtension, commonCardFields } from '../card-fields.js';
import { countDefined } from '../validate.js';

const metadata = lazy(() => z.record(z.string(), z.unknown()));

/** v1.0 `TaskState` enum names. */
/** The names of the task state enum (what `V1TaskStateSchema` accepts). */
export const V1_TASK_STATES = [
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;
export const V1TaskStateSchema = lazy(() => z.enum(V1_TASK_STATES));

/** v1.0 `Role` enum names. */
/** The names of the role enum (what `V1RoleSchema` accepts). */
export const V1_ROLES = ['ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT'] as const;
export const V1RoleSchema = lazy(() => z.enum(V1_ROLES));

/** v1.0 Part: exactly one of `text`, `raw` (base64), `url`, `data`. */
export const V1PartSchema = lazy(() => z
  .object({
    text: z.optional(z.string()),
    raw: z.optional(z.string()),
    url: z.optional(z.string()),
    data: z.optional(z.unknown()),
    filename: z.optional(z.string()),
    mediaType: z.optional(z.string()),
    metadata: z.optional(metadata),
  }).check(z.refine((p) => countDefined(p.text, p.raw, p.url, p.data) === 1, {
    message: 'a Part needs exactly one of text, raw, url, data',
  })));

/** Validates a v1.0 `Message` from the wire (strip: see file comment). */
export const V1MessageSchema = lazy(() => z.object({
  messageId: z.string(),
  role: V1RoleSchema,
  parts: z.array(V1PartSchema),
  contextId: z.optional(z.string()),
  taskId: z.optional(z.string()),
  referenceTaskIds: z.optional(z.array(z.string())),
  extensions: z.optional(z.array(z.string())),
  metadata: z.optional(metadata),
}));

/** Validates a v1.0 `TaskStatus` from the wire (strip: see file comment). */
export const V1TaskStatusSchema = lazy(() => z.object({
  state: V1TaskStateSchema,
  message: z.optional(V1MessageSchema),
  timestamp: z.optional(z.string()),
}));

/** Validates a v1.0 `Artifact` from the wire (strip: see file comment). */
export const V1ArtifactSchema = lazy(() => z.object({
  artifactId: z.string(),
  name: z.optional(z.string()),
  description: z.optional(z.string()),
  parts: z.array(V1PartSchema),
  extensions: z.optional(z.array(z.string())),
  metadata: z.optional(metadata),
}));

/** Validates a v1.0 `Task` from the wire (strip: see file comment). */
export const V1TaskSchema = lazy(() => z.object({
  id: z.string(),
  contextId: z.string(),
  status: V1TaskStatusSchema,
  artifacts: z.optional(z.array(V1ArtifactSchema)),
  history: z.optional(z.array(V1MessageSchema)),
  metadata: z.optional(metadata),
}));

/** Validates a v1.0 `StatusUpdate` from the wire (strip: see file comment). */
export const V1StatusUpdateSchema = lazy(() => z.object({
  taskId: z.string(),
  contextId: z.string(),
  status: V1TaskStatusSchema,
  metadata: z.optional(metadata),
}));

/** Validates a v1.0 `ArtifactUpdate` from the wire (strip: see file comment). */
export const V1ArtifactUpdateSchema = lazy(() => z.object({
  taskId: z.string(),
  contextId: z.string(),
  artifact: V1ArtifactSchema,
  append: z.optional(z.boolean()),
  lastChunk: z.optional(z.boolean()),
  metadata: z.optional(metadata),
}));

/** `SendMessageResponse`: exactly one of `task`, `message`. */
export const V1SendMessageResponseSchema = lazy(() => z
  .object({ task: z.optional(V1TaskSchema), message: z.optional(V1MessageSchema) }).check(z.refine((r) => countDefined(r.task, r.message) === 1, {
    message: 'expected exactly one of task, message',
  })));

/** `StreamResponse`: exactly one of `task`, `message`, `statusUpdate`, `artifactUpdate`. */
export const V1StreamResponseSchema = lazy(() => z
  .object({
    task: z.optional(V1TaskSchema),
    message: z.optional(V1MessageSchema),
    statusUpdate: z.optional(V1StatusUpdateSchema),
    artifactUpdate: z.optional(V1ArtifactUpdateSchema),
  }).check(z.refine((r) => countDefined(r.task, r.message, r.statusUpdate, r.artifactUpdate) === 1, {
    message: 'expected exactly one of task, message, statusUpdate, artifactUpdate',
  })));

/**
 * Validates a v1.0 `ListTasksResponse` from the wire (strip: see file comment). `tasks` may be absent:
 * ProtoJSON leaves out an empty list (the gRPC binding's answers always do), so absent means none.
 */
export const V1ListTasksResponseSchema = lazy(() => z.object({
  tasks: z.optional(z.array(V1TaskSchema)),
  nextPageToken: z.optional(z.string()),
  pageSize: z.optional(z.number()),
  totalSize: z.optional(z.number()),
}));

/**
 * Validates a v1.0 `AuthenticationInfo` from the wire (strip: see file comment): `scheme` (the proto
 * since 1.0.0); `schemes`, the list the 1.0.0 specification's own example still wrote (v0.3's shape),
 * is read too.
 */
export const V1AuthenticationInfoSchema = lazy(() => z.object({
  scheme: z.optional(z.string()),
  schemes: z.optional(z.array(z.string())),
  credentials: z.optional(z.string()),
}));

/** v1.0 `TaskPushNotificationConfig` (flat: `id`, `taskId`, `url`, `token`, `authentication`). */
export const V1TaskPushConfigSchema = lazy(() => z.object({
  id: z.optional(z.string()),
  taskId: z.string(),
  url: z.string(),
  token: z.optional(z.string()),
  authentication: z.optional(V1AuthenticationInfoSchema),
  tenant: z.optional(z.string()),
}));

/** Validates a v1.0 `ListPushConfigsResponse` from the wire (strip: see file comment). */
export const V1ListPushConfigsResponseSchema = lazy(() => z.object({
  configs: z.optional(z.array(V1TaskPushConfigSchema)),
  nextPageToken: z.optional(z.string()),
}));

/** Validates a v1.0 `AgentInterface` from the wire (loose: unknown fields kept). */
export const V1AgentInterfaceSchema = lazy(() => z.looseObject({
  url: z.string(),
  protocolBinding: z.string(),
  protocolVersion: z.string(),
  tenant: z.optional(z.string()),
}));

/** v1.0 `AgentCard` (the fields the client uses). */
export const V1AgentCardSchema = lazy(() => z.looseObject({
  ...commonCardFields,
  supportedInterfaces: z.array(V1AgentInterfaceSchema).check(z.minLength(1)),
  capabilities: z.optional(z
    .looseObject({
      streaming: z.optional(z.boolean()),
      pushNotifications: z.optional(z.boolean()),
      extendedAgentCard: z.optional(z.boolean()),
      extensions: z.optional(z.array(cardExtension)),
    })),
}));

/** A validated wire `Part`. */
export type V1Part = z.infer<typeof V1PartSchema>;
/** A validated wire `Message`. */
export type V1Message = z.infer<typeof V1MessageSchema>;
/** A validated wire `Task`. */
export type V1Task = z.infer<typeof V1TaskSchema>;
/** A validated wire `Artifact`. */
export type V1Artifact = z.infer<typeof V1ArtifactSchema>;
/** A validated wire `TaskStatus`. */
export type V1TaskStatus = z.infer<typeof V1TaskStatusSchema>;
/** A validated wire `TaskPushConfig`. */
export type V1TaskPushConfig = z.infer<typeof V1TaskPushConfigSchema>;
/** A validated wire `AgentCard`. */
export type V1AgentCard = z.infer<typeof V1AgentCardSchema>;
