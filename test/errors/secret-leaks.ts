/** Looking for a secret in everything a caller can see of a value: its JSON, its `util.inspect`, every string it holds. */
import { inspect } from 'node:util';

/** The forms a leaked secret may take: as is, inside a JSON string, and as `util.inspect` quotes it. */
export function secretForms(secret: string): string[] {
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1), inspect(secret).slice(1, -1)])];
}

/** Every string reachable from `root` (own properties, errors' message/stack/cause, arrays, records), without recursion. */
export function strings(root: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [root];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    for (const key of Reflect.ownKeys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, key);
      if (d && 'value' in d) stack.push(d.value);
    }
    if (v instanceof Error) stack.push(v.message, v.stack, v.cause);
  }
  return out;
}

/**
 * Where `secret` shows in `value`: a list of places (empty when it does not). Looks in
 * `JSON.stringify`, `util.inspect` with unlimited depth, and every string held.
 */
export function leaks(value: unknown, secret: string): string[] {
  const forms = secretForms(secret);
  const found: string[] = [];
  const json = safe(() => JSON.stringify(value) ?? '');
  const shown = inspect(value, { depth: Infinity, showHidden: false });
  for (const form of forms) {
    if (json.includes(form)) found.push(`JSON.stringify contains ${JSON.stringify(form)}`);
    if (shown.includes(form)) found.push(`util.inspect contains ${JSON.stringify(form)}`);
  }
  for (const s of strings(value)) if (s.includes(secret)) found.push(`string ${JSON.stringify(s.slice(0, 200))}`);
  return found;
}

function safe(f: () => string): string {
  try {
    return f();
  } catch (error) {
    return `unserialisable: ${String(error)}`;
  }
}
