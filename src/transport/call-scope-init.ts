import type { A2AClientError } from '../errors/a2a-client-error.js';
import type { CallScope } from './call-scope.js';

/** What a `CallScope` watches: an enclosing scope, or a deadline and a signal of its own. */
export interface CallScopeInit {
  /** The enclosing scope: its deadline is taken and its failure fails this one (no timer or listener of its own; `deadline` and `signal` ignored). */
  parent?: CallScope | undefined;
  /** Absolute deadline in `performance.now()` ms; reaching it fails the scope with `deadline-exceeded`. Absent: none. */
  deadline?: number | undefined;
  /** The caller's signal; its abort fails the scope with `aborted` (a typed reason, an outer scope's, is kept). */
  signal?: AbortSignal | undefined;
  /** A scope over one HTTP request: it can arm phase timers, and its errors say how far the request got (`phase`, from `CallScope.sent`). */
  request?: boolean | undefined;
  /** Told once, synchronously, when the scope fails after construction (not for a failure found by the constructor). */
  onFail?: ((error: A2AClientError) => void) | undefined;
  /** The setting `deadline` came from, named in its `deadline-exceeded` (see `deadline-name.ts`); a child takes its parent's. */
  deadlineName?: string | undefined;
}
