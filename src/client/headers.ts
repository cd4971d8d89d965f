import type { HeadersInit } from './options.js';

/** Lower-cases header names; later sources win. */
export function mergeHeaders(...sources: Array<Record<string, string> | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of sources) {
    if (!source) continue;
    for (const [name, value] of Object.entries(source)) out[name.toLowerCase()] = value;
  }
  return out;
}

/**
 * Resolves the client's headers (static, or a function called once per attempt so tokens stay fresh)
 * and merges the per-call ones over them.
 */
export async function resolveHeaders(
  clientHeaders: HeadersInit | undefined,
  callHeaders: Record<string, string> | undefined,
): Promise<Record<string, string>> {
  const base = typeof clientHeaders === 'function' ? await clientHeaders() : clientHeaders;
  return mergeHeaders(base, callHeaders);
}
