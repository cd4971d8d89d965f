/**
 * Secrets the SDK itself puts in a request body, redacted like the caller's header values for as long
 * as they are held: the push receiver's registration token, which `receiver.register` sends inside
 * the push config it creates, and which an agent's error answer may echo. Internal: a module holds a
 * secret while a request that carries it may fail, and releases it afterwards. Process-wide (an error
 * is redacted where the request failed, below the call that knows about the secret); a held secret is
 * hidden from every failure of any client meanwhile, which only ever hides more.
 */
// Nothing imported: the push entry loads this module, and must load no platform code.

const held = new Map<string, number>();

/** Starts redacting `secret` (and its JSON-string and percent-encoded forms) from failures; the returned function stops it (once). */
export function holdSecret(secret: string): () => void {
  // An empty text would match everywhere; the SDK's own secrets are long random tokens.
  const forms = secret === '' ? [] : [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])];
  for (const form of forms) held.set(form, (held.get(form) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const form of forms) {
      const count = (held.get(form) ?? 1) - 1;
      if (count <= 0) held.delete(form);
      else held.set(form, count);
    }
  };
}

/** The secrets held now (none most of the time). */
export function heldSecrets(): string[] {
  return held.size === 0 ? [] : [...held.keys()];
}
