/**
 * Which setting a call's deadline came from, so its `deadline-exceeded` names what the caller set:
 * the client's `options.timeouts.totalMs`, the call's `call.timeouts.totalMs`, `fanOut`'s `totalMs`,
 * the CLI's `--timeout`. The name rides on the timeouts object that set the deadline, under a symbol
 * of this package (not part of the public types), and is read once per call — a string constant, no
 * allocation on the call path.
 */
import type { Timeouts } from './settings.js';

const DEADLINE_NAME: unique symbol = Symbol('a2a-resilient.deadlineName');

/** A timeouts object that may say which setting its `totalMs` came from. */
export type NamedTimeouts = Partial<Timeouts> & { readonly [DEADLINE_NAME]?: string };

/** The name of the client-level setting when nothing else named it. */
export const CLIENT_DEADLINE = 'options.timeouts.totalMs';
/** The name of a per-call `timeouts.totalMs`. */
export const CALL_DEADLINE = 'call.timeouts.totalMs';

/** `timeouts` (a copy) saying its `totalMs` came from `name` (e.g. `fanOut totalMs`, `--timeout`). */
export function namedDeadline<T extends Partial<Timeouts>>(timeouts: T, name: string): T {
  return { ...timeouts, [DEADLINE_NAME]: name };
}

/** The name `timeouts` carries for its `totalMs`, if any. */
export function deadlineNameOf(timeouts: NamedTimeouts | undefined): string | undefined {
  return timeouts?.[DEADLINE_NAME];
}

/**
 * The setting a call's deadline came from: the call's own `timeouts.totalMs` when it set one, else
 * the client's (named by whoever made its options, e.g. the CLI).
 */
export function callDeadlineName(client: NamedTimeouts | undefined, call: NamedTimeouts | undefined): string {
  if (call?.totalMs !== undefined) return deadlineNameOf(call) ?? CALL_DEADLINE;
  return deadlineNameOf(client) ?? CLIENT_DEADLINE;
}

/** `resolved` (fresh timeouts with defaults filled in) keeping the name `from` carried, if any. */
export function keepDeadlineName<T extends Partial<Timeouts>>(resolved: T, from: NamedTimeouts | undefined): T {
  const name = deadlineNameOf(from);
  return name === undefined ? resolved : namedDeadline(resolved, name);
}
