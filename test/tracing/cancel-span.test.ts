/**
 * `cancelOnAbort` under tracing: the cancel of an abandoned task is its own CLIENT span (`CancelTask`),
 * a child of the abandoned call's span, carrying an `a2a.cancel` event with the outcome.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { A2AClient, type ResilienceEvent } from '../../src/index.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';
import { useOtel } from './otel-setup.js';

const otel = useOtel();
let server: OfficialServer;
beforeAll(async () => {
  server = await startOfficialServer();
});
afterAll(async () => {
  await server.close();
});

it('the cancel is a CancelTask span under the abandoned stream, with an a2a.cancel event', async () => {
  let reported: (e: ResilienceEvent) => void = () => undefined;
  const cancelled = new Promise<ResilienceEvent>((resolve) => {
    reported = resolve;
  });
  const client = await A2AClient.connect(server.baseUrl, { cancelOnAbort: true, onEvent: (e) => e.type === 'cancel' && reported(e) });
  try {
    let taskId: string | undefined;
    for await (const e of client.stream('slow-chunk traced')) {
      taskId ??= e.taskId;
      if (e.text === 'traced') break;
    }
    expect(await cancelled).toMatchObject({ type: 'cancel', taskId, outcome: 'canceled' });
    const spans = otel.exporter.getFinishedSpans();
    const call = spans.find((s) => s.name === 'invoke_agent official-interop-agent');
    const cancel = spans.find((s) => s.name === 'CancelTask');
    expect(call).toBeDefined();
    expect(cancel).toBeDefined();
    expect(cancel?.kind).toBe(SpanKind.CLIENT);
    expect(cancel?.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
    expect(cancel?.spanContext().traceId).toBe(call?.spanContext().traceId);
    expect(cancel?.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(cancel?.events.map((e) => [e.name, e.attributes])).toEqual([
      ['a2a.cancel', { 'a2a.task.id': taskId, 'a2a.cancel.reason': 'left', 'a2a.cancel.outcome': 'canceled' }],
    ]);
  } finally {
    await client.close();
  }
});
