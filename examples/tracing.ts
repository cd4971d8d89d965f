/**
 * Tracing: with an OpenTelemetry SDK registered, every call is one CLIENT span — `invoke_agent
 * {agent}` for sends — with its retries as span events, and `traceparent` goes out on every request
 * so the agent's own spans join the trace. Nothing to configure in the client: it uses the SDK the
 * application registered (here the in-memory exporter; in production e.g. `@opentelemetry/sdk-node`).
 *
 * Run by `npm test` (test/examples); after `npm run build` also `npm run example examples/tracing.ts` (every supported Node).
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { A2AClient } from 'a2a-resilient';
import { failFirst, httpError, mockAgent, replyText } from 'a2a-resilient/mocks';

/** One call (retried once) under the application's own span; returns what was traced and sent. */
export async function main(): Promise<{
  spans: Array<{ name: string; parent: string | undefined; events: string[]; attributes: Record<string, unknown> }>;
  traceparents: string[];
  traceId: string;
}> {
  // What an application does once at start-up (the SDK's NodeSDK does all of this for you).
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);

  const agent = mockAgent({ name: 'forecaster', version: '1.0', binding: 'JSONRPC' });
  agent.on('sendMessage', failFirst(1, httpError(503, { retryAfter: 0 }), replyText('Sunny, 24 °C')));
  const server = await agent.listen();
  try {
    const client = await A2AClient.connect(server.url);
    exporter.reset(); // keep only the call below (connect() had its own GetAgentCard span)
    const tracer = trace.getTracer('weather-app');
    const traceId = await tracer.startActiveSpan('plan trip', async (span) => {
      try {
        await client.invoke('Weather in Lisbon tomorrow?');
        return span.spanContext().traceId;
      } finally {
        span.end();
      }
    });
    await client.close();

    const finished = exporter.getFinishedSpans();
    const names = new Map(finished.map((s) => [s.spanContext().spanId, s.name]));
    return {
      spans: finished.map((s) => ({
        name: s.name,
        parent: s.parentSpanContext ? names.get(s.parentSpanContext.spanId) : undefined,
        events: s.events.map((e) => e.name),
        attributes: s.attributes,
      })),
      traceparents: agent.callsOf('sendMessage').map((c) => c.headers['traceparent'] ?? ''),
      traceId,
    };
  } finally {
    await server.close();
    await provider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await main(), null, 2));
}
