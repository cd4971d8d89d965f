/**
 * The live progress line of a stream on a terminal: elapsed time and events so far, redrawn in place on
 * stderr (`\r` + erase line), so stdout — the answer, or `--json` lines — stays clean. Every other
 * line goes through {@link Progress.io}, which erases the progress line first and redraws it after, so
 * nothing is printed over it. Off (a plain pass-through) when stderr is not a terminal.
 */
import type { CommandIO } from './io.js';

/** Erase the current terminal line and return to its start. */
const ERASE = '\r\x1b[2K';
/** How often the elapsed time is redrawn while nothing arrives. */
const TICK_MS = 250;

/** A progress line over `io` (see the file comment). */
export class Progress {
  readonly io: CommandIO;
  readonly #target: CommandIO;
  readonly #label: string;
  readonly #started = performance.now();
  #events = 0;
  #shown = false;
  #timer: ReturnType<typeof setInterval> | undefined;

  /** @param label what is being waited for, e.g. the agent's name. */
  constructor(target: CommandIO, label: string) {
    this.#target = target;
    this.#label = label;
    const on = target.isTTY === true && target.status !== undefined;
    this.io = on
      ? { ...target, out: (line) => this.#around(() => target.out(line)), err: (line) => this.#around(() => target.err(line)) }
      : target;
    if (on) {
      this.#draw();
      this.#timer = setInterval(() => this.#draw(), TICK_MS);
      this.#timer.unref();
    }
  }

  /** Counts an event and redraws. */
  event(): void {
    this.#events++;
    if (this.#timer !== undefined) this.#draw();
  }

  /** Erases the line and stops redrawing. Safe to call twice. */
  stop(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#erase();
  }

  #around(write: () => void): void {
    this.#erase();
    write();
    if (this.#timer !== undefined) this.#draw();
  }

  #erase(): void {
    if (!this.#shown) return;
    this.#target.status?.(ERASE);
    this.#shown = false;
  }

  #draw(): void {
    const seconds = ((performance.now() - this.#started) / 1000).toFixed(1);
    this.#target.status?.(`${ERASE}… ${this.#label}: ${this.#events} event${this.#events === 1 ? '' : 's'}, ${seconds} s`);
    this.#shown = true;
  }
}
