/**
 * Default behaviour of every method, backed by the task store: an echo agent that completes tasks,
 * and real getTask / cancelTask / subscribeToTask / listTasks / push-config / extended-card answers.
 */
import { z } from 'zod';
import { TERMINAL_STATES, type ProtocolVersion } from '../src/protocol/model.js';
import type { WireEncoder } from './encode.js';
import { replyTask, stream, type MockMethod, type Outcome, type Scenario, type ScenarioContext } from './scenarios.js';
import { newId } from './steps.js';
import type { WireObject } from './wire-v1.js';

const notFound = (id: string | undefined): Outcome => ({ type: 'rpc-error', code: -32001, message: `Task not found: ${id ?? '(none)'}` });

const PushBodySchema = z.looseObject({
  pushNotificationConfig: z.looseObject({}).optional(),
  config: z.looseObject({}).optional(),
});

/** Dependencies of the built-in behaviour. */
export interface BuiltinDeps {
  version: ProtocolVersion;
  encoder: WireEncoder;
  extendedCard: () => WireObject;
}

/** The default scenario of every method. */
export function builtins(deps: BuiltinDeps): Record<MockMethod, Scenario> {
  const v1 = deps.version === '1.0';
  const pushWire = (taskId: string, config: Record<string, unknown>): WireObject =>
    v1 ? { taskId, ...config } : { taskId, pushNotificationConfig: config };
  const withTask = (ctx: ScenarioContext, fn: (taskId: string) => Outcome): Outcome =>
    ctx.taskId !== undefined && ctx.store.get(ctx.taskId) ? fn(ctx.taskId) : notFound(ctx.taskId);
  return {
    sendMessage: (ctx) => replyTask({ artifacts: [`echo: ${ctx.text}`] })(ctx),
    sendStreamingMessage: (ctx) => stream([{ status: 'working' }, { artifact: `echo: ${ctx.text}`, lastChunk: true }, { status: 'completed' }])(ctx),
    getTask: (ctx) => withTask(ctx, (id) => ({ type: 'reply', result: ctx.store.get(id) ?? notFoundTask(id) })),
    cancelTask: (ctx) =>
      withTask(ctx, (id) => {
        const task = ctx.store.get(id) ?? notFoundTask(id);
        if (TERMINAL_STATES.has(task.status.state)) return { type: 'rpc-error', code: -32002, message: `Task cannot be canceled: ${id}` };
        task.status = { state: 'canceled', timestamp: new Date().toISOString() };
        ctx.store.put(task);
        return { type: 'reply', result: task };
      }),
    subscribeToTask: (ctx) =>
      withTask(ctx, (id) => ({ type: 'stream', events: [ctx.store.get(id) ?? notFoundTask(id), ...ctx.store.takePending(id)] })),
    listTasks: (ctx) => {
      if (!v1) return { type: 'rpc-error', code: -32601, message: 'Method not found' };
      const facts = z.looseObject({ contextId: z.string().optional() }).safeParse(ctx.params ?? {});
      const contextId = facts.success ? facts.data.contextId : undefined;
      const tasks = ctx.store.list().filter((t) => contextId === undefined || t.contextId === contextId);
      return { type: 'wire', body: { tasks: tasks.map(deps.encoder.task), totalSize: tasks.length, pageSize: tasks.length } };
    },
    createTaskPushNotificationConfig: (ctx) =>
      withTask(ctx, (id) => {
        const body = PushBodySchema.safeParse(ctx.params ?? {});
        // v0.3 nests the config; v1.0 sends it flat next to taskId.
        const given: Record<string, unknown> = body.success ? (body.data.pushNotificationConfig ?? body.data.config ?? { ...body.data }) : {};
        delete given['tenant'];
        const configId = z.string().safeParse(given['id']).data ?? newId('push');
        const clean: Record<string, unknown> = { ...given, id: configId };
        delete clean['taskId'];
        ctx.store.pushConfigs(id)?.set(configId, clean);
        return { type: 'wire', body: pushWire(id, clean) };
      }),
    getTaskPushNotificationConfig: (ctx) =>
      withTask(ctx, (id) => {
        const configs = ctx.store.pushConfigs(id);
        const found = ctx.configId === undefined ? configs?.values().next().value : configs?.get(ctx.configId);
        if (!found) return { type: 'rpc-error', code: -32001, message: `Push config not found: ${ctx.configId ?? '(none)'}` };
        return { type: 'wire', body: pushWire(id, found) };
      }),
    listTaskPushNotificationConfig: (ctx) =>
      withTask(ctx, (id) => {
        const list = [...(ctx.store.pushConfigs(id)?.values() ?? [])].map((c) => pushWire(id, c));
        return { type: 'wire', body: v1 || ctx.binding === 'HTTP+JSON' ? { configs: list } : list };
      }),
    deleteTaskPushNotificationConfig: (ctx) =>
      withTask(ctx, (id) => {
        if (ctx.configId !== undefined) ctx.store.pushConfigs(id)?.delete(ctx.configId);
        return { type: 'wire', body: v1 ? {} : null };
      }),
    getExtendedAgentCard: () => ({ type: 'wire', body: deps.extendedCard() }),
  };
}

function notFoundTask(id: string): never {
  throw new Error(`mock: task ${id} vanished`);
}
