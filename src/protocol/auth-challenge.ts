/**
 * Answering an agent's authentication challenge: when a request is refused with 401 (or 403
 * `insufficient_scope`) and a `WWW-Authenticate` header, the headers function is called again with
 * the challenge and the request repeated once, inside the same attempt — so the repeat is not a
 * retry (no budget, no backoff) and the circuit breaker sees one outcome. A second refusal is final:
 * kind `http` naming the scheme, with the first refusal as `cause`, and neither try's header values
 * anywhere in it.
 */
import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import { authRefusal, challengeOf, type AuthChallenge } from '../errors/auth-refusal.js';
import { redactSecrets } from '../errors/redact.js';
import { headerSecrets } from '../errors/secrets.js';
import { cleanUpAfter } from '../util/clean-up-after.js';

/** Something sent with headers: what a try of a request is made from. */
export interface WithHeaders {
  headers: Record<string, string>;
}

/** Builds a try's context, with the challenge to answer on the repeat. */
export type MakeTry<C extends WithHeaders> = (challenge: AuthChallenge | undefined) => Promise<C>;

/**
 * The error after the repeat was refused again: {@link authRefusal} (`again`), with the first refusal
 * as `cause`, redacted against the header values of both tries.
 */
function refusedAgain(again: A2AClientError, first: unknown, challenge: AuthChallenge, tries: readonly WithHeaders[]): A2AClientError {
  const refused = authRefusal(again, challenge, true);
  const final = new A2AClientError({ ...refused.toInit(), cause: first });
  final.stack = refused.stack;
  const secrets = [...new Set(tries.flatMap((t) => headerSecrets(t.headers)))].sort((a, b) => b.length - a.length);
  return redactSecrets(final, secrets);
}

/**
 * Runs `run` with the context `make(undefined)` builds; when it fails with an authentication
 * challenge, builds another with `make(challenge)` (which calls the headers function with it) and
 * runs once more; `onChallenge` is told first (the call's span records it).
 * @throws whatever `run` or `make` throw; after a second refusal, A2AClientError kind `http` naming the
 * scheme (not retryable).
 */
export async function withChallengeRepeat<C extends WithHeaders, T>(make: MakeTry<C>, run: (ctx: C) => Promise<T>, onChallenge?: (challenge: AuthChallenge) => void): Promise<T> {
  const first = await make(undefined);
  try {
    return await run(first);
  } catch (error) {
    const challenge = challengeOf(error);
    if (!challenge) throw error;
    onChallenge?.(challenge);
    const second = await make(challenge);
    try {
      return await run(second);
    } catch (again) {
      const next = challengeOf(again);
      if (!next || !isA2AClientError(again)) throw again;
      throw refusedAgain(again, error, next, [first, second]);
    }
  }
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/** An iterator that yields `head` (already read), then the rest of `source`. */
class Prepended<T> implements AsyncIterator<T, undefined> {
  #head: IteratorResult<T, undefined> | undefined;
  readonly #source: AsyncIterator<T, undefined>;
  constructor(head: IteratorResult<T, undefined>, source: AsyncIterator<T, undefined>) {
    this.#head = head;
    this.#source = source;
  }
  next(): Promise<IteratorResult<T, undefined>> {
    const head = this.#head;
    if (head === undefined) return this.#source.next();
    this.#head = undefined;
    return Promise.resolve(head);
  }
  return(): Promise<IteratorResult<T, undefined>> {
    this.#head = undefined;
    return this.#source.return?.() ?? Promise.resolve(DONE);
  }
}

/**
 * A stream made by `open` whose first read — where a refused stream request fails — answers an
 * authentication challenge as {@link withChallengeRepeat} does: the refused stream is closed, a
 * second one opened with the answered headers. Later reads go straight to the stream.
 * @throws (from the first read) as {@link withChallengeRepeat}.
 */
export function challengedStream<C extends WithHeaders, T>(make: MakeTry<C>, open: (ctx: C) => AsyncIterable<T>, onChallenge?: (challenge: AuthChallenge) => void): AsyncIterable<T> {
  return { [Symbol.asyncIterator]: () => new ChallengedIterator(make, open, onChallenge) };
}

class ChallengedIterator<C extends WithHeaders, T> implements AsyncIterator<T, undefined> {
  readonly #make: MakeTry<C>;
  readonly #open: (ctx: C) => AsyncIterable<T>;
  /** The stream once its first read succeeded. */
  #ready: AsyncIterator<T, undefined> | undefined;
  /** The stream being opened (for `return()` during the first read). */
  #opening: AsyncIterator<T, undefined> | undefined;
  #first: Promise<AsyncIterator<T, undefined>> | undefined;
  readonly #onChallenge: ((challenge: AuthChallenge) => void) | undefined;

  constructor(make: MakeTry<C>, open: (ctx: C) => AsyncIterable<T>, onChallenge: ((challenge: AuthChallenge) => void) | undefined) {
    this.#make = make;
    this.#open = open;
    this.#onChallenge = onChallenge;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.#ready !== undefined) return this.#ready.next();
    this.#first ??= withChallengeRepeat(this.#make, (ctx) => this.#firstRead(ctx), this.#onChallenge).then((it) => (this.#ready = it));
    return this.#first.then((it) => it.next());
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    const it = this.#ready ?? this.#opening;
    await it?.return?.();
    return DONE;
  }

  /** Opens the stream and reads its first batch; a refused stream is closed before the error goes up. */
  #firstRead(ctx: C): Promise<AsyncIterator<T, undefined>> {
    const source = this.#open(ctx)[Symbol.asyncIterator]() as AsyncIterator<T, undefined>;
    this.#opening = source;
    return source.next().then(
      (head) => new Prepended(head, source),
      async (error: unknown) => {
        await cleanUpAfter(error, () => source.return?.());
        throw error;
      },
    );
  }
}
