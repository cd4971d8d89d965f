/**
 * Registers a real OpenTelemetry SDK for a test file — tracer provider with the in-memory exporter,
 * the W3C trace-context propagator, the AsyncLocalStorage context manager — and turns it all off
 * after the file. Also: a SERVER span for what a loopback agent received (so the agent joins the
 * trace as a real one would), and the finished spans as an indented tree.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type Sampler } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** What a test file gets. */
export interface Otel {
  readonly exporter: InMemorySpanExporter;
  /** A tracer of the same provider (for a parent span, and for the agents' server spans). */
  tracer(): Tracer;
}

/** Registers the SDK around the file's tests; spans are cleared after each test. */
export function useOtel(options: { sampler?: Sampler; provider?: boolean } = {}): Otel {
  const exporter = new InMemorySpanExporter();
  let provider: BasicTracerProvider | undefined;
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    if (options.provider !== false) {
      provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)], ...(options.sampler ? { sampler: options.sampler } : {}) });
      trace.setGlobalTracerProvider(provider);
    }
  });
  afterEach(() => exporter.reset());
  afterAll(async () => {
    await provider?.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  });
  return { exporter, tracer: () => trace.getTracer('test') };
}

/** Records the SERVER span of one request an agent received, as a child of the trace context it carried. */
export function serverSpan(tracer: Tracer, name: string, headers: Record<string, string>): void {
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  tracer.startSpan(name, { kind: SpanKind.SERVER }, parent).end();
}

const KINDS = ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const STATUS = ['UNSET', 'OK', 'ERROR'];

/** The spans as an indented tree (children in start order), with kind, status, chosen attributes and events. */
export function spanTree(spans: readonly ReadableSpan[], attributes: readonly string[] = ['gen_ai.operation.name', 'gen_ai.agent.name', 'gen_ai.conversation.id', 'server.address', 'server.port', 'error.type', 'a2a.task.state']): string {
  const byParent = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  for (const s of spans) {
    const parent = s.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    byParent.set(key, [...(byParent.get(key) ?? []), s]);
  }
  const start = (s: ReadableSpan): number => s.startTime[0] * 1e9 + s.startTime[1];
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number): void => {
    for (const s of [...(byParent.get(parent) ?? [])].sort((a, b) => start(a) - start(b))) {
      const attrs = attributes.filter((a) => s.attributes[a] !== undefined).map((a) => `${a}=${String(s.attributes[a])}`);
      const pad = '  '.repeat(depth);
      lines.push(`${pad}${s.name} [${KINDS[s.kind] ?? s.kind}${s.status.code === 0 ? '' : ` ${STATUS[s.status.code] ?? s.status.code}`}]${attrs.length > 0 ? ` ${attrs.join(' ')}` : ''}`);
      for (const e of s.events) lines.push(`${pad}  · event ${e.name} ${Object.entries(e.attributes ?? {}).map(([k, v]) => `${k}=${String(v)}`).join(' ')}`);
      walk(s.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines.join('\n');
}
