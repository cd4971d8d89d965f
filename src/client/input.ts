import type { ResolvedSendParams } from '../protocol/binding.js';
import type { Metadata, Part } from '../protocol/model.js';
import type { SendMessageParams } from '../protocol/method-params.js';

/** What `invoke` and `stream` accept: plain text, or parts with optional conversation ids. */
export type AgentInput =
  | string
  | {
      /** The message's content. */
      parts: Part[];
      /** The context (conversation) the message belongs to. */
      contextId?: string;
      /** The task it continues (one waiting in `input-required` or `auth-required`). */
      taskId?: string;
      /** Extension data of the message. */
      metadata?: Metadata;
    };

/** A fresh message id (UUID v4). */
export function newMessageId(): string {
  return crypto.randomUUID();
}

/**
 * Fills in what the caller may leave out: a `messageId` (generated once, so every retry of this
 * send carries the same one) and `role: 'user'`.
 */
export function resolveSendParams(params: SendMessageParams): ResolvedSendParams {
  const { messageId, role, ...rest } = params.message;
  return {
    ...params,
    message: { kind: 'message', ...rest, messageId: messageId ?? newMessageId(), role: role ?? 'user' },
  };
}

/** `invoke` / `stream` input → `sendMessage` parameters. */
export function paramsFromInput(input: AgentInput): SendMessageParams {
  if (typeof input === 'string') return { message: { parts: [{ kind: 'text', text: input }] } };
  const { parts, contextId, taskId, metadata } = input;
  return {
    message: {
      parts,
      ...(contextId !== undefined ? { contextId } : {}),
      ...(taskId !== undefined ? { taskId } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
    },
  };
}
