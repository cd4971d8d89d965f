/**
 * What the bundler made of the names users see: every class and function an entry point of the
 * package exports (the Node build and the web build) is named as it is exported, so stacks and
 * `util.inspect` say `A2AClientError`, not the `_A2AClientError` esbuild gives a class that names
 * itself inside its own body. Needs dist/ (`npm run build`, which `npm test` runs first).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>> };

/** Each built file an entry point of the exports map resolves to, under any condition (the Node and the web builds). */
const ENTRIES: Array<[string, string]> = Object.entries(pkg.exports).flatMap(([subpath, target]) => {
  const files = new Set(typeof target === 'string' ? [target] : Object.values(target));
  return [...files].filter((file) => file.endsWith('.js')).map((file): [string, string] => [`${subpath} (${file})`, file]);
});

async function load(file: string): Promise<Record<string, unknown>> {
  const path = join(root, file);
  if (!statSync(path, { throwIfNoEntry: false })) throw new Error(`${file} is missing: run \`npm run build\` before this test`);
  return (await import(path)) as Record<string, unknown>;
}

describe('names in the bundle', () => {
  it.each(ENTRIES)('%s: every exported class and function is named as exported', async (_subpath, file) => {
    const exported = await load(file);
    const misnamed = Object.entries(exported)
      .filter(([key, value]) => typeof value === 'function' && key !== 'default' && value.name !== key)
      .map(([key, value]) => `${key} is named ${(value as { name: string }).name}`);
    expect(misnamed).toEqual([]);
  });

  it.each([['.', './dist/src/index.js'], ['. (web build)', './dist/web/index.js']])('%s: an A2AClientError prints as one, without unset fields', async (_subpath, file) => {
    const { A2AClientError } = (await load(file)) as { A2AClientError: new (init: object) => Error };
    const error = new A2AClientError({ kind: 'http', message: 'HTTP 503', status: 503 });
    const printed = inspect(error);
    expect(printed).toMatch(/^A2AClientError: HTTP 503\n/);
    expect(printed).not.toContain('undefined');
    expect(error.stack?.split('\n')[0]).toBe('A2AClientError: HTTP 503');
  });

  it('a client and a conversation (exported as types only) print under their own names', async () => {
    type Client = { conversation(): object; close(): Promise<void> };
    const { A2AClient } = (await load('./dist/src/index.js')) as { A2AClient: { connect(url: string): Promise<Client> } };
    const { mockAgent } = (await load('./dist/mocks/entry.js')) as { mockAgent(o: object): { listen(): Promise<{ url: string; close(): Promise<void> }> } };
    const server = await mockAgent({ name: 'names', version: '1.0', binding: 'JSONRPC' }).listen();
    const client = await A2AClient.connect(server.url);
    try {
      expect(inspect(client)).toMatch(/^A2AClient /);
      expect(inspect(client.conversation())).toMatch(/^Conversation /);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
