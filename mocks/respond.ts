/**
 * Turns a scenario's {@link Outcome} into a WHATWG `Response` for either binding: unary bodies,
 * SSE streams (recording delivered and undelivered events in the task store), raw HTTP errors,
 * hangs and resets.
 */
import { HttpResponse } from 'msw';
import type { ProtocolBinding, ProtocolVersion, StreamEvent, Task } from '../src/protocol/model.js';
import type { WireEncoder } from './encode.js';
import type { MockMethod, Outcome, ScenarioContext } from './scenarios.js';
import { SSE_HEADERS, sseBody } from './sse.js';
import { restErrorBody, rpcErrorBody } from './wire-errors.js';

/** Everything needed to answer. `rpcId` is set on the JSON-RPC binding. */
export interface RespondInput {
  outcome: Outcome;
  ctx: ScenarioContext;
  encoder: WireEncoder;
  rpcId?: string | number | null;
}

/** Methods answered with a stream. */
export const STREAM_METHODS: ReadonlySet<MockMethod> = new Set(['sendStreamingMessage', 'subscribeToTask']);

/** Content type of JSON bodies per version/binding, as the official server writes them. */
export function jsonContentType(version: ProtocolVersion, binding: ProtocolBinding): string {
  return version === '1.0' && binding === 'HTTP+JSON' ? 'application/a2a+json' : 'application/json; charset=utf-8';
}

/** Builds the response. Never rejects. */
export async function respond(i: RespondInput): Promise<Response> {
  const { outcome: o, ctx } = i;
  const rpc = ctx.binding === 'JSONRPC';
  const json = (body: unknown, status = 200): Response =>
    new HttpResponse(JSON.stringify(body), { status, headers: { 'content-type': jsonContentType(ctx.version, ctx.binding) } });
  const ok = (result: unknown): Response => (rpc ? json({ jsonrpc: '2.0', id: i.rpcId ?? null, result }) : json(result, restOkStatus(ctx)));
  switch (o.type) {
    case 'hang':
      await new Promise<void>((resolve) => {
        if (ctx.signal.aborted) return resolve();
        ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      return HttpResponse.error();
    case 'reset':
      return HttpResponse.error();
    case 'http':
      return new HttpResponse(o.body, { status: o.status, headers: o.headers });
    case 'rpc-error': {
      if (rpc) return json(rpcErrorBody(i.rpcId ?? null, o.code, o.message, o.data));
      const e = restErrorBody(ctx.version, o.code, o.message, o.data);
      return json(e.body, e.status);
    }
    case 'wire':
      if (!rpc && ctx.method === 'deleteTaskPushNotificationConfig') return new HttpResponse(null, { status: 204 });
      return ok(o.body);
    case 'reply':
      if (STREAM_METHODS.has(ctx.method)) return sse(i, o.streamEvents ?? [o.result], {});
      if (o.result.kind === 'task') ctx.store.put(o.result);
      return ok(encodeUnary(i, o.result));
    case 'stream': {
      if (STREAM_METHODS.has(ctx.method)) return sse(i, o.events, o);
      for (const e of o.events) ctx.store.apply(e);
      const last = lastResult(o.events, ctx);
      return last ? ok(encodeUnary(i, last)) : json(rpcErrorBody(i.rpcId ?? null, -32603, 'empty stream'));
    }
  }
}

/** The official server answers 201 to REST push-config creation, and to v0.3 REST `message:send`. */
function restOkStatus(ctx: ScenarioContext): number {
  if (ctx.method === 'createTaskPushNotificationConfig') return 201;
  return ctx.version === '0.3' && ctx.method === 'sendMessage' ? 201 : 200;
}

/** A unary result as the method answers it: a bare Task for getTask / cancelTask, else wrapped (v1.0) or as the encoder writes events. */
export function encodeUnary(i: Pick<RespondInput, 'ctx' | 'encoder'>, result: Task | StreamEvent): unknown {
  const bare = i.ctx.method === 'getTask' || i.ctx.method === 'cancelTask';
  return bare && result.kind === 'task' ? i.encoder.task(result) : i.encoder.event(result);
}

/** What a unary call answers after a stream outcome was applied to the store: the message, or the task's snapshot. */
export function lastResult(events: readonly StreamEvent[], ctx: ScenarioContext): Task | StreamEvent | undefined {
  const first = events[0];
  if (first?.kind === 'message') return first;
  return ctx.store.get(first?.kind === 'task' ? first.id : ctx.ids.taskId);
}

function sse(i: RespondInput, events: readonly StreamEvent[], opts: { gapMs?: number; dropAfter?: number; idleAfter?: number }): Response {
  const { ctx } = i;
  const body = sseBody<StreamEvent>({
    items: events,
    encode: (e) => (ctx.binding === 'JSONRPC' ? { jsonrpc: '2.0', id: i.rpcId ?? null, result: i.encoder.event(e) } : i.encoder.event(e)),
    ...opts,
    onSent: (e) => ctx.store.apply(e),
    onUnsent: (rest) => {
      const taskId = events.find((e): e is Task => e.kind === 'task')?.id ?? ctx.ids.taskId;
      ctx.store.setPending(taskId, rest);
    },
    signal: ctx.signal,
  });
  return new HttpResponse(body, { status: 200, headers: SSE_HEADERS });
}
