/**
 * One Node timer for every deadline and phase timer in the process: a min-heap of due times, with
 * the timer armed for the earliest. Starting and ending a call is then a heap push and pop instead of a
 * `setTimeout` / `clearTimeout` pair (each a timer-list insert, a native clock read and, for a
 * call alone in flight, the creation and deletion of a whole timer list).
 *
 * The timer is left armed when the last deadline is cancelled, but unref'd: it keeps the process
 * alive only while some deadline is pending, as one timer per call would.
 */

/** A due time in the heap. */
export interface Due {
  /** Absolute, in `performance.now()` ms; finite. */
  readonly deadline: number;
  /** Position in the heap; -1 when not in it. Owned by this module. */
  slot: number;
  /** Called once, when `performance.now()` has reached `deadline` (unless cancelled first). */
  readonly expire: () => void;
}

/** `setTimeout` fires at once for longer delays (and warns); longer deadlines re-arm on the way. */
const TIMEOUT_MAX = 2 ** 31 - 1;

const heap: Due[] = [];
let timer: NodeJS.Timeout | undefined;
/** The deadline `timer` is armed for; `Infinity` when it is not armed. */
let armedFor = Number.POSITIVE_INFINITY;
/** Bumped per arming: a timer of an older arming (one `clearTimeout` could not clear) does nothing. */
let generation = 0;

/**
 * Schedules `due.expire()` at `due.deadline`.
 * @param now `performance.now()`, when the caller has it at hand.
 */
export function schedule(due: Due, now: number = performance.now()): void {
  due.slot = heap.length;
  heap.push(due);
  siftUp(due.slot);
  const first = heap[0] ?? due;
  // Re-armed too when the armed deadline is overdue (its timer may be lost: fake timers uninstalled);
  // always for the earliest deadline, which may be an overdue one still waiting for the event loop.
  if (first.deadline < armedFor || armedFor < now) arm(first.deadline, now);
  else if (heap.length === 1) keepAlive(true);
}

/** Removes `due` from the heap; it will not expire. A no-op when it already expired or was cancelled. */
export function cancel(due: Due): void {
  if (due.slot < 0) return;
  removeAt(due.slot);
  if (heap.length === 0) keepAlive(false);
}

/** Refs or unrefs the armed timer (when it has those methods: fake timers in a browser-like test environment return numbers). */
function keepAlive(on: boolean): void {
  if (typeof timer !== 'object') return;
  if (on && typeof timer.ref === 'function') timer.ref();
  else if (!on && typeof timer.unref === 'function') timer.unref();
}

function arm(deadline: number, now: number): void {
  if (timer !== undefined) clearTimeout(timer);
  armedFor = deadline;
  // Whole ms, at least 1: Node keeps one timer list per distinct duration.
  const ms = Math.min(TIMEOUT_MAX, Math.max(1, Math.ceil(deadline - now)));
  timer = setTimeout(onTimer, ms, ++generation);
}

function onTimer(armedAt: number): void {
  if (armedAt !== generation) return;
  const due = armedFor;
  timer = undefined;
  armedFor = Number.POSITIVE_INFINITY;
  // What the timer was armed for is due even if the clock says a little less (Node fires up to ~1 ms
  // early, and under fake timers `performance.now()` may not move at all).
  const now = performance.now();
  const until = Math.max(now, due);
  try {
    for (let first = heap[0]; first !== undefined && first.deadline <= until; first = heap[0]) {
      removeAt(0);
      first.expire();
    }
  } finally {
    const next = heap[0];
    if (next !== undefined && next.deadline < armedFor) arm(next.deadline, performance.now());
  }
}

function removeAt(slot: number): void {
  const removed = heap[slot];
  const last = heap.pop();
  if (removed) removed.slot = -1;
  if (last === undefined || last === removed) return;
  heap[slot] = last;
  last.slot = slot;
  siftDown(slot);
  siftUp(last.slot);
}

function siftUp(start: number): void {
  let i = start;
  const item = heap[i];
  if (item === undefined) return;
  while (i > 0) {
    const parentSlot = (i - 1) >> 1;
    const parent = heap[parentSlot];
    if (parent === undefined || parent.deadline <= item.deadline) break;
    heap[i] = parent;
    parent.slot = i;
    i = parentSlot;
  }
  heap[i] = item;
  item.slot = i;
}

function siftDown(start: number): void {
  let i = start;
  const item = heap[i];
  if (item === undefined) return;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= heap.length) break;
    const right = left + 1;
    const leftItem = heap[left];
    const rightItem = heap[right];
    let child = left;
    let childItem = leftItem;
    if (rightItem !== undefined && leftItem !== undefined && rightItem.deadline < leftItem.deadline) {
      child = right;
      childItem = rightItem;
    }
    if (childItem === undefined || childItem.deadline >= item.deadline) break;
    heap[i] = childItem;
    childItem.slot = i;
    i = child;
  }
  heap[i] = item;
  item.slot = i;
}

/** How many due times are waiting: a diagnostic (a finished call leaves none behind). */
export function pendingDeadlines(): number {
  return heap.length;
}
