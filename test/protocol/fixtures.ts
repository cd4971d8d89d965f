import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A captured exchange with the official server (test/interop/fixtures). */
export interface Fixture {
  request: { method: string; path: string; headers: Record<string, string>; body?: Record<string, unknown> };
  response: { status: number; contentType: string; body?: Record<string, unknown>; raw?: string };
}

/** Loads a captured fixture by name. */
export function fixture(name: string): Fixture {
  const url = new URL(`../interop/fixtures/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(fileURLToPath(url), 'utf8')) as Fixture;
}

/** The `data:` payloads of a captured SSE body, parsed. */
export function sseFrames(raw: string): Array<Record<string, unknown>> {
  return raw
    .split('\n\n')
    .filter((f) => f.startsWith('data: '))
    .map((f) => JSON.parse(f.slice('data: '.length)) as Record<string, unknown>);
}
