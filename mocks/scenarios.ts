/**
 * Scenarios: what a mock agent does with one call. A scenario is a plain function from the call's
 * context to an {@link Outcome}; builders below cover replies, streams and every fault the SDK must survive.
 */
import type { Artifact, Message, Metadata, ProtocolBinding, ProtocolVersion, StreamEvent, Task, TaskState } from '../src/protocol/model.js';
import { agentMessage, newId, resolveSteps, textArtifact, type StreamStep, type TaskIds } from './steps.js';
import type { TaskStore } from './task-store.js';

/** Methods a mock answers, by their version-independent names. */
export type MockMethod =
  | 'sendMessage'
  | 'sendStreamingMessage'
  | 'getTask'
  | 'listTasks'
  | 'cancelTask'
  | 'subscribeToTask'
  | 'createTaskPushNotificationConfig'
  | 'getTaskPushNotificationConfig'
  | 'listTaskPushNotificationConfig'
  | 'deleteTaskPushNotificationConfig'
  | 'getExtendedAgentCard';

/** What a scenario sees of a call. */
export interface ScenarioContext {
  /** The method called. */
  method: MockMethod;
  /** The A2A version the mock speaks. */
  version: ProtocolVersion;
  /** The binding the call came over. */
  binding: ProtocolBinding;
  /** Ids for the task this call creates or continues (from the request's message, else fresh). */
  ids: TaskIds;
  /** Text of the request message's text parts, joined. */
  text: string;
  /** Task id addressed by getTask / cancelTask / subscribeToTask / push config calls. */
  taskId?: string;
  /** Push config id addressed by get/delete push config calls. */
  configId?: string;
  /** The request params as received (JSON-RPC `params`, REST body plus path ids). */
  params: unknown;
  /** 1-based number of this call among calls of the same method. */
  attempt: number;
  /** The tasks the mock created (read or store one to script later calls). */
  store: TaskStore;
  /** Aborts when the client goes away or the server closes (for scenarios that wait). */
  signal: AbortSignal;
}

/** Options of a stream outcome. */
export interface StreamOptions {
  /** Pause before every event after the first, in ms. @default 0 */
  gapMs?: number;
  /** Drop the connection after this many events (socket destroyed / fetch body errors). */
  dropAfter?: number;
  /** Stop sending after this many events but keep the connection open (idle). */
  idleAfter?: number;
}

/** What the mock answers. */
export type Outcome =
  /** An A2A result; a streaming call gets `streamEvents` (else the result as one event). */
  | {
      /** The outcome's kind. */
      type: 'reply';
      /** The Task or Message to answer with. */
      result: Task | Message;
      /** What a streaming call gets instead. */
      streamEvents?: StreamEvent[];
    }
  /** A stream of events, paced and broken as the options say. */
  | ({
      /** The outcome's kind. */
      type: 'stream';
      /** The events, in order. */
      events: StreamEvent[];
    } & StreamOptions)
  /** A result body written as is (to send what the model cannot express). */
  | {
      /** The outcome's kind. */
      type: 'wire';
      /** The body, as the wire carries it. */
      body: unknown;
    }
  /** A JSON-RPC error object (the matching status on REST and gRPC). */
  | {
      /** The outcome's kind. */
      type: 'rpc-error';
      /** The JSON-RPC code. */
      code: number;
      /** The error message. */
      message: string;
      /** `error.data`. */
      data?: unknown;
    }
  /** A bare HTTP answer, no A2A envelope. */
  | {
      /** The outcome's kind. */
      type: 'http';
      /** The status. */
      status: number;
      /** Its headers. */
      headers: Record<string, string>;
      /** Its body. */
      body: string;
    }
  /** No answer until the client gives up. */
  | {
      /** The outcome's kind. */
      type: 'hang';
    }
  /** The connection is destroyed. */
  | {
      /** The outcome's kind. */
      type: 'reset';
    };

/** A scripted behaviour for one call. */
export type Scenario = (ctx: ScenarioContext) => Outcome | Promise<Outcome>;

/** Answers with an agent Message carrying `text`. */
export function replyText(text: string, metadata?: Metadata): Scenario {
  return (ctx) => ({ type: 'reply', result: agentMessage(text, { contextId: ctx.ids.contextId }, metadata) });
}

/** Options of {@link replyTask}. */
export interface ReplyTaskOptions {
  /** @default 'completed' */
  state?: TaskState;
  /** Artifacts; a string becomes a text artifact. */
  artifacts?: Array<string | Artifact>;
  /** The task's metadata. */
  metadata?: Metadata;
  /** Status message; a string becomes an agent text message. */
  statusMessage?: string | Message;
}

/** Answers with a Task (stored, so getTask/cancelTask/subscribeToTask see it). */
export function replyTask(options: ReplyTaskOptions = {}): Scenario {
  return (ctx) => {
    const sm = options.statusMessage;
    const task: Task = {
      kind: 'task',
      id: ctx.ids.taskId,
      contextId: ctx.ids.contextId,
      status: {
        state: options.state ?? 'completed',
        timestamp: new Date().toISOString(),
        ...(sm === undefined ? {} : { message: typeof sm === 'string' ? agentMessage(sm, ctx.ids) : sm }),
      },
      ...(options.artifacts ? { artifacts: options.artifacts.map((a, i) => (typeof a === 'string' ? textArtifact(a, `artifact-${i + 1}`) : a)) } : {}),
      ...(options.metadata ? { metadata: options.metadata } : {}),
    };
    return { type: 'reply', result: task };
  };
}

/** Streams the steps as SSE (a unary call gets the final task snapshot instead). */
export function stream(steps: readonly StreamStep[], options: StreamOptions = {}): Scenario {
  return (ctx) => ({ type: 'stream', events: resolveSteps(steps, ctx.ids), ...options });
}

/** Answers with a JSON-RPC error (REST: the matching HTTP status and error body). */
export function jsonRpcError(code: number, message: string, data?: unknown): Scenario {
  return () => ({ type: 'rpc-error', code, message, ...(data === undefined ? {} : { data }) });
}

/** A v1.0 `google.rpc.RetryInfo` detail for `jsonRpcError` data, e.g. `retryInfo(1.5)` → `retryDelay: "1.5s"`. */
export function retryInfo(seconds: number): Record<string, unknown> {
  return { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` };
}

/** A v1.0 `google.rpc.ErrorInfo` detail for `jsonRpcError` data. */
export function errorInfo(reason: string, metadata?: Record<string, string>): Record<string, unknown> {
  return { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org', ...(metadata ? { metadata } : {}) };
}

/** Options of {@link httpError}. */
export interface HttpErrorOptions {
  /** `Retry-After` header value (seconds, or an HTTP-date string). */
  retryAfter?: number | string;
  /** A problem+json body (RFC 9457). */
  problem?: Record<string, unknown>;
  /** @default 'text/html; charset=utf-8' (or problem+json when `problem` is set) */
  contentType?: string;
  /** Raw body; defaults to a small HTML error page. */
  body?: string;
  /** More response headers. */
  headers?: Record<string, string>;
}

/** Answers with a bare HTTP error (not an A2A envelope): HTML 500 pages, 429 with Retry-After, problem+json. */
export function httpError(status: number, options: HttpErrorOptions = {}): Scenario {
  return () => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.retryAfter !== undefined) headers['retry-after'] = String(options.retryAfter);
    if (options.problem) {
      headers['content-type'] = options.contentType ?? 'application/problem+json';
      return { type: 'http', status, headers, body: options.body ?? JSON.stringify({ status, ...options.problem }) };
    }
    headers['content-type'] = options.contentType ?? 'text/html; charset=utf-8';
    return { type: 'http', status, headers, body: options.body ?? `<html><body><h1>${status} Error</h1></body></html>` };
  };
}

/** Options of {@link failedTask}: where the structured error goes (outer metadata, the status message's metadata, or its text only) and its fields. */
export interface FailedTaskOptions {
  /** `outer`: task/event metadata + status message mirror; `mirror`: status message metadata only; `text-only`: parts only. @default 'outer' */
  placement?: 'outer' | 'mirror' | 'text-only';
  /** @default 'failed' */
  state?: 'failed' | 'rejected' | 'canceled';
  /** The error's type, e.g. `flow_error` (the client's `ResponseError.type`). */
  error_type?: string;
  /** The error's code (the client's `ResponseError.code`, as a string). */
  error_code?: string | number;
  /** The error's message. */
  error_message?: string;
  /** The request field the error is about. */
  error_param?: string;
  /** An LLM response id (the client's event `id`). */
  llm_response_id?: string;
  /** Display text in the status message parts. @default error_message */
  text?: string;
}

/** Answers with a failed Task (unary) or a stream ending in a failed status update, its error in metadata (`error_type`, `error_code`, …) as `where` says. */
export function failedTask(options: FailedTaskOptions = {}): Scenario {
  return (ctx) => {
    const state = options.state ?? 'failed';
    const placement = options.placement ?? 'outer';
    const fields: Metadata = { object_type: 'error', task_state: state };
    for (const k of ['error_type', 'error_code', 'error_message', 'error_param', 'llm_response_id'] as const) {
      if (options[k] !== undefined) fields[k] = options[k];
    }
    const text = options.text ?? options.error_message ?? 'task failed';
    const message = agentMessage(text, ctx.ids, placement === 'text-only' ? undefined : fields);
    const outer = placement === 'outer' ? { metadata: fields } : {};
    const status = { state, message, timestamp: new Date().toISOString() };
    const task: Task = { kind: 'task', id: ctx.ids.taskId, contextId: ctx.ids.contextId, status, ...outer };
    const submitted: Task = { kind: 'task', id: ctx.ids.taskId, contextId: ctx.ids.contextId, status: { state: 'submitted' } };
    const update: StreamEvent = { kind: 'status-update', ...ctx.ids, status, ...outer };
    return { type: 'reply', result: task, streamEvents: [submitted, update] };
  };
}

/** Never answers; the request's abort (client gone) ends it. */
export function hang(): Scenario {
  return () => ({ type: 'hang' });
}

/** Destroys the connection without an answer (msw: a network error). */
export function reset(): Scenario {
  return () => ({ type: 'reset' });
}

/** Waits `ms` (honouring abort) before running `then`. */
export function delay(ms: number, then: Scenario): Scenario {
  return async (ctx) => {
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, ms);
      function done(): void {
        clearTimeout(t);
        ctx.signal.removeEventListener('abort', done);
        resolve();
      }
      ctx.signal.addEventListener('abort', done, { once: true });
    });
    return ctx.signal.aborted ? { type: 'hang' } : then(ctx);
  };
}

/**
 * Runs `failure` for the first `n` calls it sees, then `then` for every later one. Install it with
 * `agent.on(...)`: a scenario queued with `once`/`reply` serves a single call.
 */
export function failFirst(n: number, failure: Scenario, then: Scenario): Scenario {
  let seen = 0;
  return (ctx) => {
    seen += 1;
    return seen <= n ? failure(ctx) : then(ctx);
  };
}

/** A fresh task/context id pair (for scenarios that build their own events). */
export function freshIds(): TaskIds {
  return { taskId: newId('task'), contextId: newId('ctx') };
}
