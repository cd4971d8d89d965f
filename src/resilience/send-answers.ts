/**
 * What a lookup of a send whose fate is unknown is given (`send-lookup.ts`): the message, how to make
 * its requests, and what the client knows of how its agent answers sends.
 */
import type { CallRequests } from '../protocol/agent-requests.js';

/** The message of a send whose fate is unknown, as the lookup looks for it. */
export interface LostMessage {
  messageId: string;
  contextId?: string | undefined;
  /** The task the message continues: looked up with `GetTask` instead of `ListTasks`. */
  taskId?: string | undefined;
}

/**
 * What a client knows of how its agent answers sends: an agent seen answering a new send with a bare
 * Message (no task) may run a send without leaving any task behind, so a lookup that finds none
 * proves nothing there.
 */
export class SendAnswers {
  #bareMessages = false;

  /** Notes how the agent answered a send (`message` continuing no task: a bare answer). */
  saw(answer: { kind: string }, message: { taskId?: string | undefined }): void {
    if (answer.kind === 'message' && message.taskId === undefined) this.#bareMessages = true;
  }

  /** The agent has answered a new send without starting a task. */
  get bareMessages(): boolean {
    return this.#bareMessages;
  }
}

/** What a lookup needs besides the message: how to make its requests, and when the send went out. */
export interface LookupContext {
  /** The call's requests (its headers, trace context, limits). */
  requests: CallRequests;
  /** When the send first went out (ms since the epoch, this machine's clock). */
  sentAt: number;
  answers: SendAnswers;
}

