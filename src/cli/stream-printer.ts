import type { AgentEvent } from '../convert/agent-event.js';
import { formatEvent } from './format.js';
import type { CommandIO } from './io.js';

/**
 * Prints a streamed answer for people: chunks as they arrive, on one line (no newline per chunk),
 * ended with a newline; the final event's whole answer is not printed again after its chunks (only
 * when nothing was streamed, e.g. an agent that answers with one message). Status lines and errors
 * get lines of their own. An IO without `write` (a test's) gets each streamed line whole.
 */
export class StreamPrinter {
  readonly #io: CommandIO;
  readonly #onText: () => void;
  /** Text written on the current stdout line, not ended yet. */
  #open = false;
  /** Chunk text collected for an IO without `write`. */
  #line = '';
  #streamed = false;

  /** `onText`: called before the first chunk is written (the progress line gives way to the answer). */
  constructor(io: CommandIO, onText: () => void = () => undefined) {
    this.#io = io;
    this.#onText = onText;
  }

  /** Prints one event of the stream. */
  event(event: AgentEvent): void {
    if (event.error) {
      this.end();
      this.#io.err(formatEvent(event));
      return;
    }
    if (event.partial) {
      const text = event.text ?? '';
      if (text === '') return;
      // The agent replaced the artifact: what was printed cannot be taken back, so the new text starts a line.
      if (event.replace === true) this.end();
      if (!this.#streamed) this.#onText();
      this.#streamed = true;
      this.#write(text);
      return;
    }
    if (event.done && this.#streamed) {
      this.end();
      // The answer is on screen already; an interrupted task still says it waits for the user.
      if (event.state !== undefined && event.state !== 'completed') this.#io.out(`[${event.state}]`);
      return;
    }
    if (event.text || event.done) {
      this.end();
      this.#io.out(formatEvent(event));
    }
  }

  /** Ends the current line of streamed text, if one is open. Safe to call twice. */
  end(): void {
    if (!this.#open) return;
    this.#open = false;
    if (this.#io.write) this.#io.write('\n');
    else {
      this.#io.out(this.#line);
      this.#line = '';
    }
  }

  #write(text: string): void {
    this.#open = true;
    if (this.#io.write) this.#io.write(text);
    else this.#line += text;
  }
}
