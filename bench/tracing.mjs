/**
 * `BENCH_TRACING=1`: registers an OpenTelemetry SDK in the benchmark process before the SDK under test
 * is loaded, as a production service would — a tracer provider whose BatchSpanProcessor hands spans
 * to an exporter that drops them, the W3C trace-context propagator and the AsyncLocalStorage context
 * manager — so every call of a2a-resilient makes its span and sends `traceparent`. Without it nothing
 * is registered (the API stays a no-op): the cost of tracing off.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Counts spans and drops them. */
class DroppingExporter {
  spans = 0;
  export(spans, done) {
    this.spans += spans.length;
    done({ code: 0 });
  }
  shutdown() {
    return Promise.resolve();
  }
}

/** Registers the SDK when BENCH_TRACING=1; returns `{ exporter, shutdown }` or undefined. */
export function registerTracing() {
  if (process.env.BENCH_TRACING !== '1') return undefined;
  const exporter = new DroppingExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter, { maxQueueSize: 65_536, maxExportBatchSize: 4_096 })] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return { exporter, shutdown: () => provider.shutdown() };
}
