/**
 * The per-registration tokens of the receiver's default authentication. A token is
 * `<id>.<secret>`: the id (random, not secret) finds its registration without comparing secrets;
 * the secret is compared in constant time, as SHA-256 digests of equal length. Only the digest is
 * kept. Web-standard (`crypto.getRandomValues`, `crypto.subtle`): any runtime.
 */

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function random(size: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(size)));
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** Equal-length byte arrays compared without an early exit. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] ?? 0);
  return diff === 0;
}

interface Entry {
  taskId: string;
  digest: Promise<Uint8Array>;
}

/** Live tokens, each bound to one task. */
export class TokenRegistry {
  readonly #entries = new Map<string, Entry>();

  /** A fresh token for `taskId` (32 random bytes of secret); valid until {@link revoke}. */
  issue(taskId: string): string {
    const id = random(12);
    const secret = random(32);
    this.#entries.set(id, { taskId, digest: digest(secret) });
    return `${id}.${secret}`;
  }

  /** The token stops being accepted. */
  revoke(token: string): void {
    this.#entries.delete(token.slice(0, token.indexOf('.')));
  }

  /** The task `token` was issued for, or `undefined` when it is not a live token of this registry. */
  async check(token: string): Promise<string | undefined> {
    const dot = token.indexOf('.');
    const entry = dot > 0 ? this.#entries.get(token.slice(0, dot)) : undefined;
    if (entry === undefined) return undefined;
    const [expected, presented] = await Promise.all([entry.digest, digest(token.slice(dot + 1))]);
    return sameBytes(expected, presented) ? entry.taskId : undefined;
  }

  clear(): void {
    this.#entries.clear();
  }
}
