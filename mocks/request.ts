/**
 * Reads what a mock needs from a request body (either version, either binding), with zod.
 */
import { z } from 'zod';

const PartSchema = z.looseObject({ text: z.string().optional() });
const MessageSchema = z.looseObject({
  messageId: z.string().optional(),
  taskId: z.string().optional(),
  contextId: z.string().optional(),
  parts: z.array(PartSchema).optional(),
  content: z.array(PartSchema).optional(),
});
const ParamsSchema = z.looseObject({
  message: MessageSchema.optional(),
  request: MessageSchema.optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  taskId: z.string().optional(),
  configId: z.string().optional(),
  pushNotificationConfigId: z.string().optional(),
  historyLength: z.coerce.number().optional(),
  contextId: z.string().optional(),
});

/** The fields a mock reads from request params. */
export interface RequestFacts {
  messageId?: string;
  messageTaskId?: string;
  contextId?: string;
  text: string;
  /** Task addressed by id (`taskId`, else `id`, else `name: "tasks/{id}"`). */
  taskId?: string;
  configId?: string;
}

/** Extracts {@link RequestFacts}; unreadable params yield empty facts (never throws). */
export function readFacts(params: unknown): RequestFacts {
  const p = ParamsSchema.safeParse(params ?? {});
  if (!p.success) return { text: '' };
  const m = p.data.message ?? p.data.request;
  const parts = m?.parts ?? m?.content ?? [];
  const named = p.data.name?.startsWith('tasks/') ? p.data.name.split('/')[1] : undefined;
  const facts: RequestFacts = { text: parts.map((x) => x.text ?? '').join('') };
  if (m?.messageId) facts.messageId = m.messageId;
  if (m?.taskId) facts.messageTaskId = m.taskId;
  const ctx = m?.contextId ?? p.data.contextId;
  if (ctx) facts.contextId = ctx;
  const taskId = p.data.taskId ?? p.data.id ?? named;
  if (taskId) facts.taskId = taskId;
  const idIsConfig = p.data.taskId !== undefined && p.data.id !== p.data.taskId;
  const configId = p.data.configId ?? p.data.pushNotificationConfigId ?? (idIsConfig ? p.data.id : undefined);
  if (configId) facts.configId = configId;
  return facts;
}

const EnvelopeSchema = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  method: z.string(),
  params: z.unknown().optional(),
});

/** A parsed JSON-RPC request envelope. */
export type Envelope = z.infer<typeof EnvelopeSchema>;

/** Parses a JSON-RPC envelope: the envelope, or which standard error to answer. */
export function parseEnvelope(text: string): { ok: true; env: Envelope } | { ok: false; code: -32700 | -32600; id: string | number | null } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error: unknown) {
    void error;
    return { ok: false, code: -32700, id: null };
  }
  const env = EnvelopeSchema.safeParse(json);
  if (env.success) return { ok: true, env: env.data };
  const id = z.looseObject({ id: z.union([z.string(), z.number()]) }).safeParse(json);
  return { ok: false, code: -32600, id: id.success ? id.data.id : null };
}
