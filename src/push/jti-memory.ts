/**
 * The JWT ids (`jti`) a receiver has let in, each until its token can no longer be accepted anyway
 * (its `exp`, or `iat` + `maxTokenAgeSeconds`), with the digest of the delivery it carried: a token
 * carries one delivery. The agent's retry of that same delivery with the same token is still a
 * repeat (dropped as one, 2xx); a different delivery under a used `jti` is refused. Bounded: at most
 * `max` ids; when that many are live, a new one is refused until some expire (the agent retries
 * later), rather than forgetting a live one (which would let it be replayed). Per receiver, in memory.
 */
export class JtiMemory {
  readonly #max: number;
  readonly #seen = new Map<string, { digest: string; until: number }>();

  constructor(max: number) {
    this.#max = max;
  }

  /**
   * Claims `jti` (valid until `until`, epoch ms) for the delivery of `digest`: `ok` when it is new
   * (now remembered) or was claimed for the same bytes; `reused` when it carried other bytes; `full`
   * when no room is left for a new one.
   */
  claim(jti: string, until: number, digest: string): 'ok' | 'reused' | 'full' {
    const now = Date.now();
    const known = this.#seen.get(jti);
    if (known !== undefined && known.until > now) return known.digest === digest ? 'ok' : 'reused';
    if (this.#seen.size >= this.#max) this.#prune(now);
    if (this.#seen.size >= this.#max) return 'full';
    this.#seen.set(jti, { digest, until });
    return 'ok';
  }

  /** Forgets a claim whose delivery was not taken after all (the agent may retry it with the same token). */
  release(jti: string, digest: string): void {
    if (this.#seen.get(jti)?.digest === digest) this.#seen.delete(jti);
  }

  #prune(now: number): void {
    for (const [jti, entry] of this.#seen) if (entry.until <= now) this.#seen.delete(jti);
  }
}
