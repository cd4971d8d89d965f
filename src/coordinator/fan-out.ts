import type { A2AClient } from '../client/a2a-client.js';
import type { AgentInput } from '../client/input.js';
import type { CallOptions } from '../client/options.js';
import { isTerminalError, type AgentEvent } from '../convert/agent-event.js';
import { A2AClientError, type FanOutFailure } from '../errors/a2a-client-error.js';
import type { ResponseError } from '../errors/a2a-client-error.js';
import { callDeadlineName, namedDeadline, type NamedTimeouts } from '../transport/deadline-name.js';

/** One agent to ask in a {@link fanOut}. */
export interface FanOutTarget {
  /** The client of the agent to ask. */
  client: A2AClient;
  /** What to send it, as for `client.invoke(input)`. */
  input: AgentInput;
  /** Per-call options for this target; its `timeouts.totalMs` is capped by the fan-out's deadline. */
  call?: CallOptions;
  /**
   * How this target is named in the result and in an `insufficient-results` error's `failures`.
   * @default the agent's card name (`client.name`)
   */
  label?: string;
}

/**
 * What names a target in a {@link FanOutResult} entry: agents whose cards share a name (replicas of one
 * agent) stay apart by `label` and `index`.
 */
export interface FanOutEntry {
  /** The agent's name (its card name). */
  agent: string;
  /** The target's `label`, else the agent's card name. */
  label: string;
  /** The target's position in the `targets` array. */
  index: number;
}

/** How a {@link fanOut} runs: how many answers are enough, one deadline, when to settle. */
export interface FanOutOptions {
  /**
   * Fewest successes the caller can work with; fewer → `insufficient-results`.
   * @default 1
   */
  minResults?: number;
  /** One deadline for the whole fan-out. Each target's own deadline is capped by what is left of it. */
  totalMs?: number;
  /** Aborts the whole fan-out: it rejects with kind `aborted`. */
  signal?: AbortSignal;
  /**
   * `'all'` waits for every target (or the deadline); `'min'` cancels the rest as soon as
   * `minResults` succeeded (they are reported in `skipped` with code `settled`).
   * @default 'all'
   */
  settle?: 'all' | 'min';
  /**
   * Cancel, at their agents, the tasks of targets still running when the fan-out settles (the
   * deadline, `settle: 'min'`, or `signal`): see `ClientOptions.cancelOnAbort`. Each target's task
   * must be known while it runs, so each target streams its answer (`client.stream`; an agent whose
   * card says it does not stream is sent non-blocking and polled) instead of a blocking `invoke`:
   * its `events` are then the streamed ones (chunks, then the final event). A target's own
   * `call.cancelOnAbort` wins. The cancels run in the background; the fan-out does not wait for them.
   * @default false
   */
  cancelOnAbort?: boolean;
}

/**
 * What a {@link fanOut} resolves with: every target lands in exactly one of `ok`, `failed`, `skipped`,
 * in the order the targets finished; each entry carries `agent`, `label` and `index` ({@link FanOutEntry}).
 */
export interface FanOutResult {
  /** Agents that answered without a terminal error. */
  ok: Array<
    FanOutEntry & {
      /** Its events, as `invoke` resolves them (`events.at(-1)` is the final one). */
      events: AgentEvent[];
    }
  >;
  /** Agents whose call ended in a terminal error. */
  failed: FanOutFailure[];
  /**
   * Agents not asked: circuit open (answered instantly), or cancelled by `settle: 'min'`. Their
   * `error` says why: the breaker was open (type `circuit_open`), or the target was cancelled once
   * enough had answered (code `settled`).
   */
  skipped: FanOutFailure[];
}

/**
 * Asks several agents at once, each under its own client's resilience policy and one shared
 * deadline, and degrades gracefully: a hung agent costs at most the deadline, an agent whose breaker
 * is open costs nothing.
 * @throws A2AClientError kind `insufficient-results` (with every `failed` and `skipped` entry in `failures`) when fewer
 * than `minResults` agents succeed; kind `aborted` when `signal` fires.
 */
export async function fanOut(targets: readonly FanOutTarget[], options: FanOutOptions = {}): Promise<FanOutResult> {
  const minResults = options.minResults ?? 1;
  const settled = new AbortController();
  const started = performance.now();
  const result: FanOutResult = { ok: [], failed: [], skipped: [] };

  const runOne = async (target: FanOutTarget, index: number): Promise<void> => {
    const signals = [settled.signal, options.signal, target.call?.signal].filter((s): s is AbortSignal => s !== undefined);
    let timeouts: NamedTimeouts = { ...target.call?.timeouts };
    if (options.totalMs !== undefined) {
      // The shortest of the three deadlines is the call's, named after the setting that set it.
      const left = Math.max(0, options.totalMs - (performance.now() - started));
      const own = timeouts.totalMs ?? Number.POSITIVE_INFINITY;
      const client = target.client.timeouts.totalMs;
      if (left <= own && left <= client) timeouts = namedDeadline({ ...timeouts, totalMs: left }, 'fanOut totalMs');
      else if (client < own) timeouts = namedDeadline({ ...timeouts, totalMs: client }, callDeadlineName(target.client.timeouts, undefined));
    }
    const cancelOnAbort = target.call?.cancelOnAbort ?? options.cancelOnAbort ?? false;
    const call: CallOptions = { ...target.call, timeouts, signal: AbortSignal.any(signals), cancelOnAbort };
    const events = cancelOnAbort ? await collect(target.client.stream(target.input, call)) : await target.client.invoke(target.input, call);
    const agent = target.client.name;
    const entry: FanOutEntry = { agent, label: target.label ?? agent, index };
    const terminal = events.find(isTerminalError);
    if (!terminal) {
      result.ok.push({ ...entry, events });
      if (options.settle === 'min' && result.ok.length >= minResults) settled.abort(new Error('fan-out settled'));
      return;
    }
    const cause = terminal.error.cause;
    // Skipped only when the breaker refused the call outright; an agent that failed until its
    // breaker opened mid-call has failed.
    if (cause?.kind === 'circuit-open' && cause.attempts.length <= 1) result.skipped.push({ ...entry, error: terminal.error });
    else if (cause?.kind === 'aborted' && settled.signal.aborted && !options.signal?.aborted) {
      const error: ResponseError = { ...terminal.error, type: 'canceled', source: 'path', code: 'settled', message: 'cancelled: enough agents answered' };
      result.skipped.push({ ...entry, error });
    } else result.failed.push({ ...entry, error: terminal.error });
  };

  await Promise.all(targets.map(runOne));

  if (options.signal?.aborted) {
    throw new A2AClientError({ kind: 'aborted', message: 'fan-out aborted by the caller', cause: options.signal.reason });
  }
  if (result.ok.length < minResults) {
    const failures = [...result.failed, ...result.skipped];
    throw new A2AClientError({
      kind: 'insufficient-results',
      message: `fan-out got ${result.ok.length} of the ${minResults} results it needs from ${targets.length} agents`,
      failures,
    });
  }
  return result;
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}
