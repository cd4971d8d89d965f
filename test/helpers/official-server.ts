/**
 * A real A2A server built with the official `@a2a-js/sdk` (1.3, Express 5) on 127.0.0.1, for interop
 * tests. One `DefaultRequestHandler` serves v1.0 and v0.3 (`legacyCompat`) over JSON-RPC and REST:
 *
 * - card: `GET /.well-known/agent-card.json` (and `/.well-known/agent.json` for pre-0.3 clients);
 *   shape depends on the `A2A-Version` request header (absent → v0.3 hybrid card).
 * - JSON-RPC: `POST /a2a/jsonrpc` (v1.0 with `A2A-Version: 1.0`, v0.3 without the header).
 * - REST: `/a2a/rest/...` (v1.0 routes such as `POST /a2a/rest/message:send`, with `A2A-Version: 1.0`)
 *   and `/a2a/rest/v1/...` (v0.3 routes, without the header).
 *
 * The agent is scripted by the text of the incoming message; see {@link ScriptedExecutor}.
 */
import { createServer, type Server } from 'node:http';
import express from 'express';
import { z } from 'zod';
import { Role, TaskState, type AgentCard, type Message, type Part } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultExecutionEventBusManager,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { createLegacyAwarePushNotificationSender } from '@a2a-js/sdk/compat/v0_3/server';

/** Mount path of the JSON-RPC endpoint (both versions). */
export const OFFICIAL_JSONRPC_PATH = '/a2a/jsonrpc';
/** Mount path of the REST endpoints: v1.0 at `<path>/message:send`, v0.3 at `<path>/v1/message:send`. */
export const OFFICIAL_REST_PATH = '/a2a/rest';

/** A JSON object as read from the wire. */
export type JsonObject = Record<string, unknown>;

/** Options for {@link startOfficialServer}. */
export interface OfficialServerOptions {
  /** Agent name on the card. @default 'official-interop-agent' */
  name?: string;
  /** Serve v0.3 too (`legacyCompat` on card, JSON-RPC and REST). @default true */
  legacyCompat?: boolean;
  /** Which binding the card lists first. @default 'JSONRPC' */
  preferredBinding?: 'JSONRPC' | 'HTTP+JSON';
  /** Delay between the chunks of `stream <n>` / `stream-fail <n>`, in ms. @default 0 */
  chunkDelayMs?: number;
  /** Advertise streaming on the card (`false`: the SDK refuses streaming sends and resubscribes). @default true */
  streaming?: boolean;
  /** Changes the card before it is served (add security schemes, sign it with the SDK's signer). */
  card?: (card: AgentCard) => AgentCard | Promise<AgentCard>;
  /**
   * Push notifications: the card says `pushNotifications: true` and the handler gets the SDK's own
   * `InMemoryPushNotificationStore` and `DefaultPushNotificationSender` (its legacy-aware build, so a
   * config a v0.3 client created gets v0.3 payloads, as the compat layer sends them).
   * @default false
   */
  pushNotifications?: boolean;
}

/** A running official server. */
export interface OfficialServer {
  /** `http://127.0.0.1:<port>` — where the agent card is. */
  baseUrl: string;
  /** `<baseUrl>/a2a/jsonrpc`. */
  jsonRpcUrl: string;
  /** `<baseUrl>/a2a/rest` (v0.3 REST routes are under `<restUrl>/v1`). */
  restUrl: string;
  /** The v1.0 card exactly as served to `A2A-Version: 1.0`. */
  card: JsonObject;
  /** The card exactly as served without `A2A-Version` (v0.3 hybrid; equals `card` without legacyCompat). */
  legacyCard: JsonObject;
  /** Every user message the agent was given, in order (see {@link ReceivedMessage}). */
  received: ReceivedMessage[];
  /** Every HTTP request served, as `"<METHOD> <path>"`, in order (card fetches included). */
  requests: string[];
  /** Stops the server: ends running `slow` tasks, destroys every socket (open SSE streams too). */
  close: () => Promise<void>;
}

/** A user message as the agent got it: the ids the server resolved, and what the client referenced. */
export interface ReceivedMessage {
  text: string;
  taskId: string;
  contextId: string;
  /** The message named an existing task (`taskId` sent), which the agent continues. */
  continued: boolean;
  referenceTaskIds: string[];
}

const jsonObject = z.record(z.string(), z.unknown());

/** Structured error fields of seeds/000 for a failed task with `code`. */
export function structuredErrorMetadata(code: string, taskId: string): JsonObject {
  return {
    object_type: 'error',
    error_type: 'flow_error',
    error_code: code,
    error_message: `scripted failure ${code}`,
    task_state: 'failed',
    llm_response_id: `resp-${taskId}`,
  };
}

const text = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' });

function agentMessage(value: string, taskId: string, contextId: string, metadata?: JsonObject): Message {
  return {
    messageId: crypto.randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts: [text(value)],
    metadata, extensions: [], referenceTaskIds: [],
  };
}

const pause = (ms: number): Promise<void> => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

/**
 * The scripted agent. The first text part of the user message selects the script:
 * `echo <text>`, `stream <n>`, `fail <code>`, `fail-mirror <code>`, `fail-text`, `stream-fail <n>`,
 * `slow` (working until canceled), `slow-chunk <text>` (a chunk of `<text>`, then working until
 * canceled), `after <ms> <text>` (working at once, then completed after `<ms>` ms with an artifact and a
 * status message holding `<text>`; canceled or closed before: ends without completing),
 * `message <text>`, `ask` (a task that asks for input twice, then completes with both
 * answers; the answers are the next messages sent to that task); anything else is echoed.
 */
export class ScriptedExecutor implements AgentExecutor {
  /** Running `slow` tasks by id: their context and the function that ends them. */
  readonly waiting = new Map<string, { contextId: string; release: () => void }>();
  /** `ask` tasks waiting for input, by task id: the answers so far. */
  readonly asking = new Map<string, string[]>();
  readonly received: ReceivedMessage[] = [];
  constructor(private readonly chunkDelayMs: number) {}

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const running = this.waiting.get(taskId);
    if (running === undefined) return;
    const { contextId, release } = running;
    bus.publish(AgentEvent.statusUpdate({
      taskId, contextId, metadata: undefined,
      status: { state: TaskState.TASK_STATE_CANCELED, message: agentMessage('canceled by request', taskId, contextId), timestamp: new Date().toISOString() },
    }));
    release();
  };

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const input = ctx.userMessage.parts.find((p) => p.content?.$case === 'text')?.content;
    const line = input?.$case === 'text' ? input.value.trim() : '';
    const [verb = '', ...rest] = line.split(/\s+/);
    const arg = rest.join(' ');
    const { taskId, contextId } = ctx;
    this.received.push({ text: line, taskId, contextId, continued: ctx.task !== undefined, referenceTaskIds: [...ctx.userMessage.referenceTaskIds] });
    const status = (state: TaskState, msg?: Message, metadata?: JsonObject): void => {
      bus.publish(AgentEvent.statusUpdate({ taskId, contextId, metadata, status: { state, message: msg, timestamp: new Date().toISOString() } }));
    };
    const answers = this.asking.get(taskId);
    if (ctx.task !== undefined && answers !== undefined) {
      // A continued `ask` task. The official server wants a Task (or Message) first on a stream, even
      // for a task that exists: the snapshot, now working, then the status updates.
      answers.push(line);
      bus.publish(AgentEvent.task({ ...ctx.task, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() } }));
      if (answers.length < 2) {
        status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage('question 2 of 2: which day?', taskId, contextId));
        return;
      }
      this.asking.delete(taskId);
      status(TaskState.TASK_STATE_COMPLETED, agentMessage(`booked: ${answers.join(', ')}`, taskId, contextId));
      return;
    }
    const chunk = (i: number, n: number, value: string): void => {
      bus.publish(AgentEvent.artifactUpdate({
        taskId, contextId, append: i > 0, lastChunk: i === n - 1, metadata: undefined,
        artifact: { artifactId: 'out', name: 'output', description: '', parts: [text(value)], metadata: undefined, extensions: [] },
      }));
    };
    if (verb === 'message') {
      bus.publish(AgentEvent.message(agentMessage(arg, '', contextId)));
      return;
    }
    bus.publish(AgentEvent.task({
      id: taskId, contextId, artifacts: [], history: [], metadata: undefined,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
    }));
    switch (verb) {
      case 'stream':
      case 'stream-fail': {
        const n = Math.max(0, Number.parseInt(arg, 10) || 0);
        status(TaskState.TASK_STATE_WORKING);
        for (let i = 0; i < n; i++) {
          await pause(this.chunkDelayMs);
          chunk(i, n, `chunk ${i} `);
        }
        if (verb === 'stream') status(TaskState.TASK_STATE_COMPLETED, agentMessage(`streamed ${n} chunks`, taskId, contextId));
        else this.fail(status, 'STREAM_BROKEN', taskId, contextId, 'outer');
        return;
      }
      case 'ask':
        this.asking.set(taskId, []);
        status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage('question 1 of 2: where to?', taskId, contextId));
        return;
      case 'fail':
        return this.fail(status, arg || 'REMOTE_FAILURE', taskId, contextId, 'both');
      case 'fail-mirror':
        return this.fail(status, arg || 'REMOTE_FAILURE', taskId, contextId, 'mirror');
      case 'fail-text':
        status(TaskState.TASK_STATE_FAILED, agentMessage('scripted failure without metadata', taskId, contextId));
        return;
      case 'slow':
      case 'slow-chunk':
        status(TaskState.TASK_STATE_WORKING, agentMessage('working until canceled', taskId, contextId));
        if (verb === 'slow-chunk') chunk(0, 2, arg || 'first chunk');
        await new Promise<void>((release) => this.waiting.set(taskId, { contextId, release }));
        this.waiting.delete(taskId);
        return;
      case 'after': {
        const [ms = '', ...words] = rest;
        const answer = words.join(' ');
        status(TaskState.TASK_STATE_WORKING, agentMessage(`working for ${ms} ms`, taskId, contextId));
        let released = false;
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((resolve) => {
          timer = setTimeout(resolve, Math.max(0, Number.parseInt(ms, 10) || 0));
          this.waiting.set(taskId, { contextId, release: () => { released = true; resolve(); } });
        });
        clearTimeout(timer);
        this.waiting.delete(taskId);
        if (released) return;
        chunk(0, 1, answer);
        status(TaskState.TASK_STATE_COMPLETED, agentMessage(answer, taskId, contextId));
        return;
      }
      default: {
        const echoed = verb === 'echo' ? arg : line;
        chunk(0, 1, echoed);
        status(TaskState.TASK_STATE_COMPLETED, agentMessage(echoed, taskId, contextId));
      }
    }
  };

  private fail(
    status: (state: TaskState, msg?: Message, metadata?: JsonObject) => void,
    code: string, taskId: string, contextId: string, where: 'both' | 'outer' | 'mirror',
  ): void {
    const meta = structuredErrorMetadata(code, taskId);
    const msg = agentMessage(String(meta.error_message), taskId, contextId, where === 'outer' ? undefined : meta);
    status(TaskState.TASK_STATE_FAILED, msg, where === 'mirror' ? undefined : meta);
  }
}

/** The scripted agent's card: its interfaces on `base` in the preferred order, v0.3 ones too when `legacy`. */
export function buildCard(name: string, base: string, preferred: 'JSONRPC' | 'HTTP+JSON', legacy: boolean, streaming: boolean): AgentCard {
  const versions = legacy ? ['1.0', '0.3'] : ['1.0'];
  const bindings = preferred === 'JSONRPC' ? (['JSONRPC', 'HTTP+JSON'] as const) : (['HTTP+JSON', 'JSONRPC'] as const);
  const url = (b: string): string => `${base}${b === 'JSONRPC' ? OFFICIAL_JSONRPC_PATH : OFFICIAL_REST_PATH}`;
  return {
    name, description: 'Scripted agent on the official @a2a-js/sdk server (interop tests).', version: '1.0.0',
    supportedInterfaces: versions.flatMap((protocolVersion) =>
      bindings.map((protocolBinding) => ({ url: url(protocolBinding), protocolBinding, protocolVersion, tenant: '' }))),
    provider: undefined,
    capabilities: { streaming, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {}, securityRequirements: [], defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: 'script', name: 'script', description: 'echo | stream | fail | slow | message', tags: ['test'], examples: ['echo hi'], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  };
}

async function fetchCard(url: string, headers: Record<string, string>): Promise<JsonObject> {
  const res = await fetch(url, { headers });
  return jsonObject.parse(await res.json());
}

/**
 * Starts the official server on 127.0.0.1 with an ephemeral port.
 * @throws when the port cannot be bound or the card cannot be read back.
 */
export async function startOfficialServer(opts: OfficialServerOptions = {}): Promise<OfficialServer> {
  const legacy = opts.legacyCompat ?? true;
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  const executor = new ScriptedExecutor(opts.chunkDelayMs ?? 0);
  const built = buildCard(opts.name ?? 'official-interop-agent', baseUrl, opts.preferredBinding ?? 'JSONRPC', legacy, opts.streaming ?? true);
  if (opts.pushNotifications && built.capabilities) built.capabilities.pushNotifications = true;
  const card = opts.card ? await opts.card(built) : built;
  const pushStore = opts.pushNotifications ? new InMemoryPushNotificationStore() : undefined;
  const handler = pushStore
    ? new DefaultRequestHandler(card, new InMemoryTaskStore(), executor, new DefaultExecutionEventBusManager(), pushStore, createLegacyAwarePushNotificationSender(pushStore))
    : new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const compat = { enabled: legacy };
  const app = express();
  const cardRoute = agentCardHandler({ agentCardProvider: handler, legacyCompat: compat });
  app.use('/.well-known/agent-card.json', cardRoute);
  app.use('/.well-known/agent.json', cardRoute);
  app.use(OFFICIAL_JSONRPC_PATH, jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: compat }));
  app.use(OFFICIAL_REST_PATH, restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: compat }));
  const requests: string[] = [];
  server.on('request', (req: { method?: string; url?: string }) => requests.push(`${req.method ?? ''} ${req.url ?? ''}`));
  server.on('request', app);

  const close = async (): Promise<void> => {
    for (const { release } of executor.waiting.values()) release();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  };
  try {
    const cardUrl = `${baseUrl}/.well-known/agent-card.json`;
    return {
      baseUrl, jsonRpcUrl: `${baseUrl}${OFFICIAL_JSONRPC_PATH}`, restUrl: `${baseUrl}${OFFICIAL_REST_PATH}`,
      card: await fetchCard(cardUrl, { 'A2A-Version': '1.0' }),
      legacyCard: await fetchCard(cardUrl, {}),
      received: executor.received,
      requests,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
