/**
 * `cancelOnAbort`: the cancels sent for tasks whose calls were abandoned. Each runs once, in the
 * background, off the caller's stack, with its own deadline; its outcome is a `cancel` event (and a
 * span event on its own span, a child of the abandoned call's). They are tracked, never floating:
 * `close()` waits for those in flight, so a coordinator that aborts and then closes its client still
 * gets its cancels out (each is bounded by its deadline, so the wait is too).
 */
import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import { TERMINAL_STATES, type Task } from '../protocol/model.js';
import type { CallTrace } from '../resilience/call-trace.js';
import { emitEvent, type EventSink } from '../resilience/events.js';
import type { CancelEvent } from '../resilience/event-types.js';
import { platform } from '../platform/current.js';

/** A cancel request on its way: its result and its span (ended once the outcome is recorded on it). */
export interface SentCancel {
  result: Promise<Task>;
  trace: CallTrace | undefined;
}

/** Sends the cancel of `taskId` (see `AgentCalls`); may throw. */
export type SendCancel = (taskId: string, headers: Record<string, string> | undefined, parent: CallTrace | undefined) => SentCancel;

/** A task a call abandoned. */
export interface Abandoned {
  taskId: string;
  /** The abandoned call's method. */
  method: string;
  reason: CancelEvent['reason'];
  /** The abandoned call's own headers, sent with its cancel (the agent may need them to know the caller). */
  headers?: Record<string, string> | undefined;
  /** The abandoned call's span, when traced. */
  parent?: CallTrace | undefined;
}

type Outcome = Pick<CancelEvent, 'outcome' | 'state' | 'errorKind' | 'error'>;

/** The cancels of one client; see the module comment. */
export class TaskCancels {
  readonly #agent: string;
  readonly #onEvent: EventSink | undefined;
  readonly #send: SendCancel;
  /** Cancels in flight by task id: one per task at a time. */
  readonly #inFlight = new Map<string, Promise<void>>();
  #closed = false;

  constructor(agent: string, onEvent: EventSink | undefined, send: SendCancel) {
    this.#agent = agent;
    this.#onEvent = onEvent;
    this.#send = send;
  }

  /** Starts the cancel of an abandoned task (unless one for it is in flight); returns at once. */
  abandon(task: Abandoned): void {
    if (this.#inFlight.has(task.taskId)) return;
    const settled = this.#run(task, performance.now(), this.#closed).then(
      () => this.#inFlight.delete(task.taskId),
      (error: unknown) => {
        // #run handles every failure of the cancel itself; this is a listener or tracer that threw.
        this.#inFlight.delete(task.taskId);
        platform.warn(`a2a-resilient: reporting a cancel failed: ${error instanceof Error ? error.message : String(error)}`, 'A2A_RESILIENT_CANCEL');
      },
    );
    this.#inFlight.set(task.taskId, settled.then(noop));
  }

  /**
   * No more cancels are sent (later abandonments are reported `failed`, kind `aborted`); resolves
   * once those already asked for have ended.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#inFlight.values());
  }

  async #run(task: Abandoned, started: number, closed: boolean): Promise<void> {
    // Off the caller's stack, after its pending reactions: its abort (or its `break`) returns before
    // the request is even built.
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    let outcome: Outcome;
    let trace: CallTrace | undefined;
    if (closed) {
      outcome = failed(new A2AClientError({ kind: 'aborted', message: 'the client was closed before the cancel of an abandoned task was sent', agent: this.#agent, method: 'cancelTask' }));
    } else {
      try {
        const sent = this.#send(task.taskId, task.headers, task.parent);
        trace = sent.trace;
        outcome = fromTask(await sent.result);
      } catch (error) {
        outcome = fromError(error);
      }
    }
    const event: CancelEvent = {
      type: 'cancel',
      agent: this.#agent,
      method: task.method,
      taskId: task.taskId,
      reason: task.reason,
      ...outcome,
      elapsedMs: performance.now() - started,
      at: Date.now(),
    };
    if (trace !== undefined) {
      trace.event(event);
      trace.end(outcome.error);
    }
    emitEvent(this.#onEvent, event);
  }
}

function noop(): void {
  return undefined;
}

/** The outcome the agent's answer says: canceled, still running (accepted), or already ended otherwise. */
function fromTask(task: Task): Outcome {
  const state = task.status.state;
  if (state === 'canceled') return { outcome: 'canceled', state };
  return { outcome: TERMINAL_STATES.has(state) ? 'not-cancelable' : 'requested', state };
}

function fromError(error: unknown): Outcome {
  if (isA2AClientError(error) && error.a2aName === 'TaskNotCancelable') return { outcome: 'not-cancelable', errorKind: error.kind, error };
  return failed(error);
}

function failed(error: unknown): Outcome {
  return { outcome: 'failed', errorKind: isA2AClientError(error) ? error.kind : 'unknown', error };
}
