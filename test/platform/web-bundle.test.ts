/**
 * The web build as a user's bundler sees it: `import { A2AClient } from 'a2a-resilient'` bundled with
 * esbuild through the package's `exports` map (the built dist/, `npm test` builds it first), once with
 * the `browser` condition and once with `workerd`/`worker`, bundles with no error and nothing Node-only
 * in it (undici, gRPC, a `node:` built-in, a `Buffer` or `process` reference); the bundle then runs
 * against a loopback agent over the runtime's `fetch` (Node's here: the browser and workerd legs run
 * the same bundle in the real runtimes).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as otel from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockAgent, replyText, stream, type MockServer } from 'a2a-resilient/mocks';

const root = new URL('../../', import.meta.url).pathname;
const ENTRY = "export { A2AClient, isA2AClientError, useOpenTelemetry } from 'a2a-resilient';";

interface Bundled {
  code: string;
  inputs: string[];
  errors: number;
}

/** Bundles ENTRY as a user would: from the package root (its own name resolves through `exports`), no tsconfig paths. */
async function bundle(platform: 'browser' | 'neutral', conditions: string[]): Promise<Bundled> {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: root, loader: 'js' },
    tsconfigRaw: '{}',
    bundle: true,
    format: 'esm',
    platform,
    conditions,
    ...(platform === 'neutral' ? { mainFields: ['module', 'main'] } : {}),
    minify: true,
    write: false,
    metafile: true,
    outfile: 'bundle.js',
    logLevel: 'silent',
  });
  const meta: Metafile = result.metafile;
  return { code: result.outputFiles[0]?.text ?? '', inputs: Object.keys(meta.inputs), errors: result.errors.length };
}

/** A use of the global `process` or `Buffer` (not a property or method that happens to be named so). */
const NODE_GLOBAL = /(?<![\w$.])(?:process|Buffer)(?![\w$:(])|new Buffer\b/;

const BUILDS = [
  { name: 'browser', platform: 'browser', conditions: ['browser'] },
  { name: 'workerd', platform: 'neutral', conditions: ['workerd', 'worker'] },
] as const;

const dir = mkdtempSync(join(tmpdir(), 'a2a-web-bundle-'));
const bundles = new Map<string, Bundled>();
let server: MockServer;
const agent = mockAgent({ name: 'web', version: '1.0', binding: 'JSONRPC' });

beforeAll(async () => {
  for (const b of BUILDS) {
    const bundled = await bundle(b.platform, [...b.conditions]);
    bundles.set(b.name, bundled);
    writeFileSync(join(dir, `${b.name}.mjs`), bundled.code);
  }
  server = await agent.listen();
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(BUILDS)('the $name bundle of a2a-resilient', ({ name }) => {
  it('builds with nothing Node-only in it', () => {
    const b = bundles.get(name);
    expect(b?.errors).toBe(0);
    expect(b?.inputs.some((f) => f.startsWith('dist/web/'))).toBe(true);
    expect(b?.inputs.filter((f) => /node_modules\/(undici|@grpc|@bufbuild|@opentelemetry)\/|^node:|dist\/src\//.test(f))).toEqual([]);
    expect(b?.code.match(NODE_GLOBAL)?.[0]).toBeUndefined();
  });

  it('sends a message and streams over the global fetch', async () => {
    const { A2AClient } = (await import(pathToFileURL(join(dir, `${name}.mjs`)).href)) as typeof import('a2a-resilient');
    const client = await A2AClient.connect(server.url, { circuitBreaker: false });
    try {
      expect(client.protocol.binding).toBe('JSONRPC');
      agent.reply(replyText('hello from loopback'));
      agent.reply(stream([{ status: 'working' }, { artifact: 'streamed' }, { status: 'completed' }]));
      const reply = await client.sendMessage({ message: { parts: [{ kind: 'text', text: 'hi' }] } });
      expect(JSON.stringify(reply)).toContain('hello from loopback');
      const events = [];
      for await (const event of client.stream('hi')) events.push(event);
      expect(events.map((e) => e.text ?? '').join('')).toContain('streamed');
      expect(events.at(-1)).toMatchObject({ done: true, state: 'completed' });
      expect(events.some((e) => e.error !== undefined)).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('refuses the options a WHATWG fetch cannot honour with kind unsupported', async () => {
    const { A2AClient, isA2AClientError } = (await import(pathToFileURL(join(dir, `${name}.mjs`)).href)) as typeof import('a2a-resilient');
    for (const [field, options] of [['proxy', { proxy: 'http://127.0.0.1:9' }], ['tls', { tls: { rejectUnauthorized: false } }]] as const) {
      const error: unknown = await A2AClient.connect(server.url, options).then(() => undefined, (e: unknown) => e);
      expect(isA2AClientError(error) && { kind: error.kind, field: error.field }).toEqual({ kind: 'unsupported', field });
    }
  });

  it('traces calls through the API handed over with useOpenTelemetry (no require() to find it)', async () => {
    const { A2AClient, useOpenTelemetry } = (await import(pathToFileURL(join(dir, `${name}.mjs`)).href)) as typeof import('a2a-resilient');
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    otel.trace.setGlobalTracerProvider(provider);
    try {
      useOpenTelemetry(otel);
      const client = await A2AClient.connect(server.url, { circuitBreaker: false });
      await client.sendMessage({ message: { parts: [{ kind: 'text', text: 'hi' }] } });
      await client.close();
      const span = exporter.getFinishedSpans().find((s) => s.name === 'invoke_agent web');
      expect(span?.kind).toBe(otel.SpanKind.CLIENT);
    } finally {
      await provider.shutdown();
      otel.trace.disable();
    }
  });
});
