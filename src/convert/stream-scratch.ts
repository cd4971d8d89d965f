import { answerLimit, DEFAULT_ANSWER_CHARS } from './answer-limit.js';
import { ArtifactPositions } from './artifact-positions.js';
import { ArtifactTexts, type AnswerLog } from './artifact-texts.js';
import type { ConverterContext } from './converter.js';

/** Per-call scratch of the default converter, kept in `ctx.state.defaultConverter`. */
export class StreamScratch {
  /**
   * Each artifact's text so far (A2A's `append` rule): the final answer's text. Positions only
   * ({@link ArtifactPositions}) when the call keeps no answer, or once the answer outgrew {@link limit}:
   * the final event then carries no gathered answer.
   */
  artifacts: AnswerLog;
  /** The most characters of answer kept for the final event (the call's `accumulate`, see `answerLimit`). */
  readonly limit: number;
  /** The status message text last seen: a status whose text extends it is emitted as the new end only. */
  statusText = '';
  /** The id of the status message last seen (a status-update's message grows only under the same id). */
  statusMessageId: string | undefined;
  /** A terminal or interrupted event was emitted: nothing follows. */
  ended = false;
  lastState: string | undefined;
  taskId: string | undefined;
  contextId: string | undefined;

  constructor(limit = DEFAULT_ANSWER_CHARS) {
    this.limit = limit;
    this.artifacts = limit > 0 ? new ArtifactTexts() : new ArtifactPositions();
  }

  /** Applies one update's text to artifact `id`; an answer that outgrows {@link limit} is let go (positions kept). */
  update(id: string, text: string, append: boolean): void {
    const artifacts = this.artifacts;
    artifacts.update(id, text, append);
    if (artifacts.chars > this.limit && artifacts instanceof ArtifactTexts) this.artifacts = ArtifactPositions.of(artifacts);
  }

  /** The answer is not kept (the call said so, or it outgrew the limit): the final event goes without it. */
  get answerLetGo(): boolean {
    return !(this.artifacts instanceof ArtifactTexts);
  }
}

const KEY = 'defaultConverter';

/** The scratch of this call, created on first use. */
export function scratchOf(ctx: ConverterContext): StreamScratch {
  const existing = ctx.state[KEY];
  if (existing instanceof StreamScratch) return existing;
  // The client refuses a bad `accumulate`; a converter called directly takes it as unset.
  const fresh = new StreamScratch(answerLimit(ctx.accumulate) ?? DEFAULT_ANSWER_CHARS);
  ctx.state[KEY] = fresh;
  return fresh;
}
