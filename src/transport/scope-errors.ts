/**
 * The errors a {@link CallScope} fails with: a call's (`aborted`, `deadline-exceeded`, no phase) and a
 * request's (its phase timers, the deadline and the caller's abort, saying how far the request got).
 */
import { A2AClientError } from '../errors/a2a-client-error.js';
import type { A2AErrorKind, FailurePhase } from '../errors/kinds.js';
import { CLIENT_DEADLINE } from './deadline-name.js';

/** The timer kinds a request's scope can arm for its current phase. */
export type PhaseTimerKind = 'connect-timeout' | 'read-timeout' | 'idle-timeout';

const WHAT: Readonly<Record<PhaseTimerKind, string>> = {
  'connect-timeout': 'opening the connection',
  'read-timeout': 'waiting for the response',
  'idle-timeout': 'waiting for the next stream event',
};

/** The `aborted` error of a call, for a caller's signal reason (kept as `cause`). */
export function abortedError(reason: unknown): A2AClientError {
  return new A2AClientError({ kind: 'aborted', message: 'The call was aborted by the caller', cause: reason });
}

/**
 * The `deadline-exceeded` error of a call (with the last attempt's error as `cause`, when there was
 * one), naming the setting the deadline came from (see `deadline-name.ts`).
 */
export function deadlineError(cause?: unknown, name: string = CLIENT_DEADLINE): A2AClientError {
  return new A2AClientError({ kind: 'deadline-exceeded', message: `The call deadline (${name}) ran out`, cause });
}

/** A request's phase timer fired after `ms`. */
export function timeoutError(kind: PhaseTimerKind, ms: number, phase: FailurePhase | undefined): A2AClientError {
  return new A2AClientError({ kind, message: `Timed out after ${Math.round(ms)} ms (${WHAT[kind]})`, phase });
}

/** The call's deadline (set by the setting `name`, when known) passed `ms` after the request started. */
export function requestDeadlineError(ms: number, phase: FailurePhase | undefined, name?: string): A2AClientError {
  return new A2AClientError({ kind: 'deadline-exceeded', message: `Timed out after ${Math.round(ms)} ms (the call deadline${name === undefined ? '' : `, ${name}`})`, phase });
}

/** The caller aborted the request (`cause`: the caller's reason). */
export function requestAbortedError(cause: unknown, phase: FailurePhase | undefined): A2AClientError {
  return new A2AClientError({ kind: 'aborted', message: 'The request was aborted by the caller', cause, phase });
}

/**
 * How far a request got when it failed with `kind`: a connect timeout is before sending, a read or
 * idle timeout after; anything else (deadline, abort) depends on whether it had been `sent`.
 */
export function phaseOf(kind: A2AErrorKind, sent: boolean): FailurePhase {
  if (kind === 'connect-timeout') return 'before-send';
  if (kind === 'read-timeout' || kind === 'idle-timeout') return 'after-send';
  return sent ? 'after-send' : 'before-send';
}
