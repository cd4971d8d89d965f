/**
 * A conversation's state as plain data: what `Conversation.toJSON()` writes and `client.conversation()`
 * reads back, validated on the way in (a caller's store is outside our control).
 */
import { inEnglish, lazy, z } from '../util/lazy-zod.js';
import { A2AClientError } from '../errors/a2a-client-error.js';
import type { TaskState } from '../protocol/model.js';

/**
 * A conversation's state as plain JSON (`conversation.toJSON()`): store it anywhere and pass it to
 * `client.conversation()` — on another client, process or replica — to continue.
 */
export interface ConversationSnapshot {
  /** Format of this object; a client refuses a version it does not know. */
  version: 1;
  /** The context the agent gave the conversation (absent until the first answer). */
  contextId?: string;
  /** The last task the conversation saw (absent until an answer came as a task). */
  lastTaskId?: string;
  /** That task's last known state (present exactly when `lastTaskId` is). */
  state?: TaskState;
}

/** What `client.conversation()` starts from: nothing, a known context, or a {@link ConversationSnapshot}. */
export type ConversationInit = { contextId?: string } | ConversationSnapshot;

const STATES = ['submitted', 'working', 'input-required', 'auth-required', 'completed', 'failed', 'canceled', 'rejected', 'unknown'] as const satisfies readonly TaskState[];
const id = lazy(() => z.string().check(z.minLength(1), z.maxLength(1024)));

const Fresh = lazy(() => z.strictObject({ contextId: z.optional(id) }));
const Snapshot = lazy(() => z
  .strictObject({ version: z.literal(1), contextId: z.optional(id), lastTaskId: z.optional(id), state: z.optional(z.enum(STATES)) })
  .check(
    z.refine((s) => (s.lastTaskId === undefined) === (s.state === undefined), { path: ['state'], message: 'state and lastTaskId come together' }),
    z.refine((s) => s.lastTaskId === undefined || s.contextId !== undefined, { path: ['contextId'], message: 'a task belongs to a context' }),
  ));

/**
 * The state a conversation starts from, read from `init` (`agent` names the agent in errors).
 * @throws A2AClientError kind `unsupported` (method `conversation`) naming the offending field in
 * `field`, every problem in `issues`: not an object, an unknown key, a field of the wrong type, or a
 * `version` other than 1.
 */
export function readConversationInit(init: unknown, agent: string): ConversationSnapshot {
  if (init === undefined) return { version: 1 };
  const snapshot = typeof init === 'object' && init !== null && 'version' in init;
  if (snapshot && init.version !== 1) {
    throw invalid(agent, 'version', `conversation state version ${JSON.stringify(init.version)} is not supported (this client reads version 1)`);
  }
  const parsed = snapshot ? Snapshot.safeParse(init, inEnglish()) : Fresh.safeParse(init, inEnglish());
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: issuePath(i), message: i.message }));
    const first = issues[0];
    throw invalid(agent, first?.path, `invalid conversation state${first?.path ? ` at ${first.path}` : ''}: ${first?.message ?? 'not an object'}`, issues);
  }
  return { version: 1, ...parsed.data };
}

function issuePath(issue: z.core.$ZodIssue): string {
  // An unknown key is reported on the object that holds it: name the key itself.
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  return [...issue.path.map(String), ...keys.slice(0, 1)].join('.');
}

function invalid(agent: string, field: string | undefined, message: string, issues?: { path: string; message: string }[]): A2AClientError {
  return new A2AClientError({ kind: 'unsupported', message, agent, method: 'conversation', ...(field ? { field } : {}), ...(issues ? { issues } : {}) });
}
