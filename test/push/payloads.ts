// Push payloads as agents post them: v1.0 StreamResponse objects (the official sender) and bare
// Tasks, v0.3 `kind` objects (the official compat sender posts whole Tasks).
import type { AgentEvent } from '../../src/index.js';

export type Json = Record<string, unknown>;

const V1_STATE: Record<string, string> = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELED',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
};

const at = (second: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

/** A v1.0 Task (bare): one artifact `out` holding `texts` as parts. */
export function v1Task(id: string, state: string, texts: readonly string[], second = 0): Json {
  return {
    id,
    contextId: 'ctx',
    status: { state: V1_STATE[state], timestamp: at(second) },
    artifacts: texts.length === 0 ? [] : [{ artifactId: 'out', parts: texts.map((text) => ({ text })) }],
  };
}

export const v1 = {
  task: (id: string, state: string, texts: readonly string[] = [], second = 0): Json => ({ task: v1Task(id, state, texts, second) }),
  status: (taskId: string, state: string, second = 0, text?: string): Json => ({
    statusUpdate: {
      taskId,
      contextId: 'ctx',
      status: {
        state: V1_STATE[state],
        timestamp: at(second),
        ...(text === undefined ? {} : { message: { messageId: `m-${second}`, role: 'ROLE_AGENT', parts: [{ text }] } }),
      },
    },
  }),
  chunk: (taskId: string, text: string, append = true): Json => ({
    artifactUpdate: { taskId, contextId: 'ctx', append, artifact: { artifactId: 'out', parts: [{ text }] } },
  }),
  message: (taskId: string, messageId: string, text: string): Json => ({ message: { messageId, taskId, contextId: 'ctx', role: 'ROLE_AGENT', parts: [{ text }] } }),
};

export const v03 = {
  task: (id: string, state: string, texts: readonly string[] = [], second = 0): Json => ({
    kind: 'task',
    id,
    contextId: 'ctx',
    status: { state, timestamp: at(second) },
    artifacts: texts.length === 0 ? [] : [{ artifactId: 'out', parts: texts.map((text) => ({ kind: 'text', text })) }],
  }),
  status: (taskId: string, state: string, second = 0): Json => ({ kind: 'status-update', taskId, contextId: 'ctx', status: { state, timestamp: at(second) }, final: state === 'completed' }),
  chunk: (taskId: string, text: string, append = true): Json => ({ kind: 'artifact-update', taskId, contextId: 'ctx', append, artifact: { artifactId: 'out', parts: [{ kind: 'text', text }] } }),
};

/** A POST of `body` (an object → JSON) to the webhook. */
export function delivery(body: Json | string, headers: Record<string, string> = {}): Request {
  return new Request('http://127.0.0.1/push', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Reads up to `max` events, or until the iteration ends. */
export async function take(events: AsyncIterable<AgentEvent>, max = Number.POSITIVE_INFINITY): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  if (max <= 0) return out;
  for await (const event of events) {
    out.push(event);
    if (out.length >= max) break;
  }
  return out;
}

/** The chunk texts of `events` (what a reader prints as it goes). */
export const chunks = (events: readonly AgentEvent[]): string[] => events.filter((e) => e.object === 'chat.completion.chunk' && e.state === undefined).map((e) => e.text ?? '');
