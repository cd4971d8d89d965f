/**
 * The resume loop of a stream, one state machine. Its pieces: `resume-options.ts` (what it is given),
 * `resume-round.ts` (one call of the stream through the pipeline: the send before its first event, a
 * resubscribe; how a failed round ends or goes on), `resubscribe-rounds.ts` (the rounds after a drop), `resume-attempts.ts` (its count of attempts without
 * news, and what the breaker hears of each source), `task-poll.ts` (the poll fallback),
 * `stream-state.ts` (the reconciliation: what the caller has not seen), `stream-abandon.ts` (a task
 * left behind); every verdict on a failure comes from the call's `RetryPolicy`.
 */
import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import type { StreamEvent } from '../protocol/model.js';
import { CallScope } from '../transport/call-scope.js';
import { ignoreLate } from '../util/ignore-late.js';
import { resolveRetry } from './defaults.js';
import { RetryPolicy } from './retry-policy.js';
import { ResumeAttempts, streamFailure } from './resume-attempts.js';
import { StreamState } from './stream-state.js';
import { fail, stopped } from './resume-round.js';
import { resubscribeRounds, resumeDelay } from './resubscribe-rounds.js';
import { openStream } from './stream-send.js';
import type { FoundSend } from './lost-send.js';
import { closeQuietly, noSnapshot, pollOnly, type Iter, type ResumableStreamOptions } from './resume-options.js';
import { poll } from './task-poll.js';
import { Abandonment, abandonReason, type AbandonReason } from './stream-abandon.js';

export type { ResumableStreamOptions, StreamOpen } from './resume-options.js';

/**
 * Wraps a stream so a drop or idle gap before a terminal state does not lose the task. The first event
 * is the commit point (before it the send is retried like a unary call, after it never repeated).
 * After a drop it resubscribes after the wait the retry policy gives, through the agent's pipeline like any call; rounds
 * without news are attempts ({@link ResumeAttempts}: when `retry.maxAttempts` are spent — at once with
 * `retry: false` — the last failure, the agent's own, ends it) and are charged to the retry budget. A
 * resubscribe's Task snapshot becomes exactly the updates the caller has not seen ({@link StreamState});
 * where resubscribe is unsupported, or the agent does not stream, it polls `getTask`.
 * @throws A2AClientError — the send's error, a non-drop error of the stream, the last failure once
 * the attempts are spent, a fatal error of a resubscribe or poll, `deadline-exceeded`, `aborted`,
 * `budget-exhausted`, or `idle-timeout` (polling without news for `maxIdleMs`).
 *
 * A state machine rather than a generator: while the stream is live, each batch costs one `then` on
 * the source's read and no generator step; the rare paths (opening, resume rounds, polling) are async.
 */
export function resumableStream(o: ResumableStreamOptions): AsyncIterableIterator<StreamEvent[]> {
  return new ResumableStream(o);
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

type Step = IteratorResult<StreamEvent[], undefined>;

class ResumableStream implements AsyncIterableIterator<StreamEvent[]> {
  readonly #o: ResumableStreamOptions;
  readonly #scope: CallScope;
  readonly #policy: RetryPolicy;
  readonly #attempts: ResumeAttempts;
  readonly #state = new StreamState();
  readonly #abandonment: Abandonment;
  /** `#state.progress` when last looked at. */
  #seen = 0;
  /** The first event arrived: errors from here on are the stream's, not the send's. */
  #committed = false;
  #iterator: Iter | undefined;
  #poll: AsyncGenerator<StreamEvent[], void, undefined> | undefined;
  #lastDrop: A2AClientError | undefined;
  /** The source is a resubscribe whose first event (the Task snapshot) has not been read yet. */
  #fromResubscribe = false;
  /** Resume rounds since the last news (spaces the rounds by backoff). */
  #resumes = 0;
  #started = false;
  #closed = false;
  /** The step in flight; later `next()` calls wait for it. */
  #busy: Promise<Step> | undefined;

  constructor(o: ResumableStreamOptions) {
    this.#o = o;
    // A stream its reader left alone still ends its span, and tells `onAbandon`, when the deadline or the caller ends it.
    const trace = o.trace;
    this.#abandonment = new Abandonment(o);
    const onFail = trace || this.#abandonment.watched ? (error: A2AClientError): void => {
      this.#abandon(abandonReason(error));
      trace?.end(error);
    } : undefined;
    this.#scope = new CallScope({ deadline: o.deadline, signal: o.signal, onFail, deadlineName: o.deadlineName });
    this.#policy = o.resilience?.policy(o.retry) ?? new RetryPolicy(resolveRetry(undefined, o.retry));
    this.#attempts = new ResumeAttempts(this.#policy, o.resilience);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<Step> {
    if (this.#busy !== undefined) return this.#busy.then(() => this.next());
    if (this.#closed) return Promise.resolve(DONE);
    let step: Promise<Step>;
    if (this.#poll !== undefined) step = this.#pollStep(this.#poll);
    else if (this.#iterator !== undefined) step = this.#read(this.#iterator);
    else if (!this.#started) {
      this.#started = true;
      step = this.#open();
    } else {
      // The last batch brought the task to its end.
      this.#close();
      return Promise.resolve(DONE);
    }
    this.#busy = step;
    return step;
  }

  async return(): Promise<Step> {
    this.#abandon('left');
    this.#close();
    return DONE;
  }

  /** Past its first read a source is our binding's stream, whose request scope opens inside this one: read directly. */
  #read(iterator: Iter): Promise<Step> {
    return iterator.next().then(this.#onBatch, this.#onLiveError);
  }

  async #open(): Promise<Step> {
    try {
      if (this.#o.pollTaskId !== undefined) {
        this.#state.taskId = this.#o.pollTaskId;
        return await this.#startPoll(pollOnly());
      }
      const opened = await openStream(this.#o, this.#scope, this.#policy);
      if ('found' in opened) return await this.#follow(opened);
      if (this.#closed) {
        closeQuietly(opened.iterator);
        return this.#settle(DONE);
      }
      this.#committed = true;
      this.#iterator = opened.iterator;
      return await this.#onBatch(opened.first);
    } catch (error) {
      throw this.#failed(error);
    }
  }

  /**
   * The send failed with its fate unknown and a lookup found the task it started: the stream follows
   * it from its snapshot as after a drop (resubscribed, or polled where the agent does not stream).
   */
  #follow(found: FoundSend): Promise<Step> {
    if (this.#closed) return Promise.resolve(this.#settle(DONE));
    this.#state.taskId = found.found.id;
    this.#committed = true;
    this.#lastDrop = found.error;
    return this.#o.open.method === 'sendMessage' ? this.#startPoll(found.error) : this.#resume(0);
  }

  /** One batch of the live source (or its end), turned into what the caller has not seen. */
  readonly #onBatch = (step: IteratorResult<StreamEvent[]>): Step | Promise<Step> => {
    if (this.#closed) return this.#settle(DONE);
    if (step.done === true) return this.#afterEnd();
    const state = this.#state;
    const batch = step.value;
    let deliver: StreamEvent[] | undefined;
    try {
      deliver = state.take(batch, this.#fromResubscribe);
    } catch (error) {
      throw this.#failed(error);
    }
    // A resubscribe that does not start with the Task snapshot (some servers only tap the live queue):
    // what happened while the client was away is unknown, and live events cannot be placed. Only
    // snapshots are exact from here: poll.
    if (deliver === undefined) return this.#startPoll(this.#lastDrop ?? noSnapshot());
    // Its first event was the snapshot (an empty batch brought nothing yet).
    if (batch.length > 0) this.#fromResubscribe = false;
    if (state.done) this.#dropSource();
    if (state.progress !== this.#seen) {
      this.#seen = state.progress;
      this.#resumes = 0;
      this.#attempts.news();
    }
    if (deliver.length > 0) return this.#settle({ value: deliver, done: false });
    if (state.done) {
      this.#close();
      return this.#settle(DONE);
    }
    return this.#read(this.#iterator as Iter);
  };

  readonly #onLiveError = (error: unknown): Promise<Step> => this.#recover(error);

  /** The source closed before a terminal state: resumed when the task is known. */
  async #afterEnd(): Promise<Step> {
    try {
      if (this.#state.taskId === undefined) {
        this.#close();
        return this.#settle(DONE);
      }
      const streams = this.#o.open.method !== 'sendMessage';
      const drop = new A2AClientError({ kind: 'connection', reason: 'closed', message: streams ? 'The stream closed before the task reached a terminal state' : 'The agent answered before the task reached a terminal state' });
      this.#lastDrop = drop;
      // An agent that does not stream answered a non-blocking send: that is where polling starts, not a failure.
      if (!streams) return await this.#startPoll(drop);
      if (this.#attempts.sourceFailed(drop)) throw fail(drop, this.#o);
      // A resubscribe that closed without even its snapshot (some servers do so for a task that has
      // ended): subscribing again would get the same; the task itself says where it stands.
      if (this.#fromResubscribe) return await this.#startPoll(drop);
      return await this.#resume(resumeDelay(this.#policy, drop, this.#resumes, this.#o));
    } catch (error) {
      throw this.#failed(error);
    }
  }

  /** A failure of the live source: resumed when it is a drop of a known task, else the stream's error. */
  async #recover(error: unknown): Promise<Step> {
    try {
      if (this.#closed) return this.#settle(DONE);
      const o = this.#o;
      if (this.#scope.aborted) throw stopped(this.#scope, this.#lastDrop, o);
      if (!isA2AClientError(error)) throw error;
      const spent = this.#attempts.sourceFailed(error);
      if (spent || this.#state.taskId === undefined) throw fail(error, o);
      const delayMs = resumeDelay(this.#policy, error, this.#resumes, o);
      this.#lastDrop = error;
      return await this.#resume(delayMs);
    } catch (failure) {
      throw this.#failed(failure);
    }
  }

  /** Resume rounds (see {@link resubscribeRounds}), then the source they opened, or polling. */
  async #resume(firstDelayMs: number): Promise<Step> {
    this.#dropSource();
    const init = { o: this.#o, scope: this.#scope, policy: this.#policy, attempts: this.#attempts, taskId: this.#state.taskId as string, closed: () => this.#closed };
    const r = await resubscribeRounds(init, firstDelayMs, this.#lastDrop as A2AClientError, this.#resumes);
    this.#resumes = r.resumes;
    this.#lastDrop = r.lastDrop;
    if (r.outcome === 'closed') return this.#settle(DONE);
    if (r.outcome === 'poll') return await this.#startPoll(r.lastDrop);
    this.#iterator = r.opened.iterator;
    this.#fromResubscribe = true;
    return await this.#onBatch(r.opened.first);
  }

  /** From here on the task is polled (see {@link poll}). */
  #startPoll(drop: A2AClientError): Promise<Step> {
    this.#dropSource();
    const polling = poll(this.#o, this.#state, this.#scope, this.#policy, drop, this.#attempts);
    this.#poll = polling;
    return this.#pollStep(polling);
  }

  async #pollStep(polling: AsyncGenerator<StreamEvent[], void, undefined>): Promise<Step> {
    try {
      const step = await polling.next();
      if (step.done === true) this.#close();
      return this.#settle(step.done === true ? DONE : step);
    } catch (error) {
      throw this.#failed(error);
    }
  }

  #settle(step: Step): Step {
    this.#busy = undefined;
    return step;
  }

  /**
   * Ends the stream on a failure; returns the failure to throw: before the first event the send's
   * own (judged by its pipeline), after it judged as the stream's ({@link streamFailure}).
   */
  #failed(error: unknown): unknown {
    this.#busy = undefined;
    this.#abandon(abandonReason(error));
    this.#close();
    if (!this.#committed || !isA2AClientError(error)) return error;
    return streamFailure(error, this.#o.idempotent, this.#policy, this.#attempts.list);
  }

  /** Tells `onAbandon` (once) that the stream ends for `reason` while its task, known, has not settled. */
  #abandon(reason: AbandonReason | undefined): void {
    if (!this.#closed) this.#abandonment.tell(reason, this.#state);
  }

  #dropSource(): void {
    closeQuietly(this.#iterator);
    this.#iterator = undefined;
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#dropSource();
    const polling = this.#poll;
    this.#poll = undefined;
    if (polling !== undefined) void polling.return(undefined).catch(ignoreLate);
    this.#scope.dispose();
  }
}

