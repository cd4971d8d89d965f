/**
 * The A2A error table of both specification revisions, on both v1.0 bindings, against a loopback
 * agent: every A2A error reaches the caller with the same `a2aName` whichever way it was sent —
 * JSON-RPC code with a 1.0.0 `error.data` ErrorInfo or a 1.0.1 `data` without one; REST
 * `google.rpc.Status` with the 1.0.0 status (TaskNotCancelable 409, ContentTypeNotSupported 415,
 * InvalidAgentResponse 502) or the 1.0.1 one (400, 400, 500) and its ErrorInfo reason. A status alone
 * names nothing. Classification does not move with the revision: TaskNotCancelable stays fatal,
 * InvalidAgentResponse stays retryable for reads and not for sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type A2AClientError } from '../../src/index.js';
import { classify, type ClassifyContext } from '../../src/resilience/classify.js';
import { DEFAULT_RETRY } from '../../src/resilience/defaults.js';
import { recordingAgent, rpcId, v1Card, type Recorded, type RecordingAgent } from '../helpers/recording-agent.js';

const INFO = 'type.googleapis.com/google.rpc.ErrorInfo';
const errorInfo = (reason: string) => ({ '@type': INFO, reason, domain: 'a2a-protocol.org' });

/** [a2aName, JSON-RPC code, ErrorInfo reason, HTTP 1.0.0, HTTP 1.0.1, google.rpc status 1.0.1] — §5.4 of each revision. */
const TABLE = [
  ['TaskNotFound', -32001, 'TASK_NOT_FOUND', 404, 404, 'NOT_FOUND'],
  ['TaskNotCancelable', -32002, 'TASK_NOT_CANCELABLE', 409, 400, 'FAILED_PRECONDITION'],
  ['PushNotificationNotSupported', -32003, 'PUSH_NOTIFICATION_NOT_SUPPORTED', 400, 400, 'FAILED_PRECONDITION'],
  ['UnsupportedOperation', -32004, 'UNSUPPORTED_OPERATION', 400, 400, 'FAILED_PRECONDITION'],
  ['ContentTypeNotSupported', -32005, 'CONTENT_TYPE_NOT_SUPPORTED', 415, 400, 'INVALID_ARGUMENT'],
  ['InvalidAgentResponse', -32006, 'INVALID_AGENT_RESPONSE', 502, 500, 'INTERNAL'],
  ['ExtendedAgentCardNotConfigured', -32007, 'EXTENDED_AGENT_CARD_NOT_CONFIGURED', 400, 400, 'FAILED_PRECONDITION'],
  ['ExtensionSupportRequired', -32008, 'EXTENSION_SUPPORT_REQUIRED', 400, 400, 'FAILED_PRECONDITION'],
  ['VersionNotSupported', -32009, 'VERSION_NOT_SUPPORTED', 400, 400, 'FAILED_PRECONDITION'],
] as const;

/** What the agent answers for one scripted error: status and body. */
type Script = { status: number; body: object };

/** The scripts of one test, by id (sent in the `x-script` header of the call). */
const scripts = new Map<string, Script>();
let nextScript = 0;

let rpcAgent: RecordingAgent;
let restAgent: RecordingAgent;
let rpc: A2AClient;
let rest: A2AClient;

function answer(req: Recorded, url: string, binding: 'JSONRPC' | 'HTTP+JSON') {
  if (req.path.startsWith('/.well-known/')) return { body: v1Card(url, `errors-${binding}`, binding) };
  const script = scripts.get(req.headers['x-script'] ?? '');
  if (script === undefined) return { status: 500, body: 'no script' };
  const body = binding === 'JSONRPC' ? { jsonrpc: '2.0', id: rpcId(req), ...script.body } : script.body;
  return { status: script.status, headers: { 'content-type': 'application/a2a+json' }, body: JSON.stringify(body) };
}

beforeAll(async () => {
  rpcAgent = await recordingAgent((req, url) => answer(req, url, 'JSONRPC'));
  restAgent = await recordingAgent((req, url) => answer(req, url, 'HTTP+JSON'));
  rpc = await A2AClient.connect(rpcAgent.url, { retry: false, circuitBreaker: false });
  rest = await A2AClient.connect(restAgent.url, { retry: false, circuitBreaker: false });
});
afterAll(async () => {
  await Promise.all([rpc.close(), rest.close()]);
  await Promise.all([rpcAgent.close(), restAgent.close()]);
});

/** The error a `getTask` (or `method`) ends with when the agent answers `script`. */
async function failWith(client: A2AClient, script: Script, method: 'getTask' | 'cancelTask' | 'sendMessage' = 'getTask'): Promise<A2AClientError> {
  const id = String(++nextScript);
  scripts.set(id, script);
  const call = { headers: { 'x-script': id } };
  const pending =
    method === 'sendMessage'
      ? client.sendMessage({ message: { parts: [{ kind: 'text', text: 'hi' }] } }, call)
      : method === 'cancelTask'
        ? client.cancelTask({ id: 't1' }, call)
        : client.getTask({ id: 't1' }, call);
  const error = await pending.then(() => undefined, (e: unknown) => e);
  if (!isA2AClientError(error)) throw new Error(`expected an A2AClientError, got ${String(error)}`);
  return error;
}

const rpcError = (code: number, data?: unknown) => ({ status: 200, body: { error: { code, message: 'scripted', ...(data === undefined ? {} : { data }) } } });
const rpcStatus = (status: number, name: string, details: unknown[]) => ({ status, body: { error: { code: status, status: name, message: 'scripted', details } } });

describe.each(TABLE)('%s (code %i, reason %s): one a2aName on every binding and revision', (name, code, reason, http100, http101, status101) => {
  it('JSON-RPC 1.0.0: the code with an ErrorInfo in error.data', async () => {
    const e = await failWith(rpc, rpcError(code, [errorInfo(reason)]));
    expect([e.kind, e.code, e.a2aName, e.details?.reason]).toEqual(['json-rpc', code, name, reason]);
  });

  it('JSON-RPC 1.0.1: the code with no ErrorInfo (an empty data array, other @type objects, or no data)', async () => {
    for (const data of [[], [{ '@type': 'type.googleapis.com/google.rpc.DebugInfo', detail: 'x' }], undefined]) {
      const e = await failWith(rpc, rpcError(code, data));
      expect([e.kind, e.code, e.a2aName]).toEqual(['json-rpc', code, name]);
    }
  });

  it('JSON-RPC: a server-specific or generic code carrying the ErrorInfo reason', async () => {
    for (const other of [-32000, -32603]) {
      const e = await failWith(rpc, rpcError(other, [errorInfo(reason)]));
      expect([e.code, e.a2aName], String(other)).toEqual([other, name]);
    }
  });

  it(`REST 1.0.0: HTTP ${http100} with google.rpc.Status details [ErrorInfo]`, async () => {
    const e = await failWith(rest, rpcStatus(http100, 'FAILED_PRECONDITION', [errorInfo(reason)]));
    expect([e.kind, e.status, e.a2aName, e.details?.reason]).toEqual(['http', http100, name, reason]);
  });

  it(`REST 1.0.1: HTTP ${http101} ${status101} with details [ErrorInfo, other @type objects]`, async () => {
    const details = [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'id', description: 'x' }] }, 'junk', errorInfo(reason)];
    const e = await failWith(rest, rpcStatus(http101, status101, details));
    expect([e.kind, e.status, e.a2aName, e.rpcStatus?.status]).toEqual(['http', http101, name, status101]);
  });
});

describe('a status alone names no A2A error', () => {
  it.each([400, 404, 409, 415, 500, 502])('REST %i without an ErrorInfo is a plain http error', async (status) => {
    const e = await failWith(rest, rpcStatus(status, 'UNKNOWN', []));
    expect([e.kind, e.status, e.a2aName]).toEqual(['http', status, undefined]);
  });

  it('an ErrorInfo reason outside the A2A table names nothing', async () => {
    const e = await failWith(rest, rpcStatus(400, 'FAILED_PRECONDITION', [{ '@type': INFO, reason: 'QUOTA_EXCEEDED', domain: 'billing.example' }]));
    expect([e.a2aName, e.details?.reason]).toEqual([undefined, 'QUOTA_EXCEEDED']);
  });

  it('an A2A code outranks a contradicting reason; reason variants servers write are read alike', async () => {
    expect((await failWith(rpc, rpcError(-32001, [errorInfo('TASK_NOT_CANCELABLE')]))).a2aName).toBe('TaskNotFound');
    for (const variant of ['TASK_NOT_CANCELLABLE', 'task_not_cancelable', 'TaskNotCancelable', 'TASK_NOT_CANCELABLE_ERROR']) {
      expect((await failWith(rest, rpcStatus(400, 'FAILED_PRECONDITION', [errorInfo(variant)]))).a2aName, variant).toBe('TaskNotCancelable');
    }
  });
});

describe('classification does not move with the revision', () => {
  const cancel: ClassifyContext = { method: 'cancelTask', idempotent: true, options: DEFAULT_RETRY };
  const read: ClassifyContext = { method: 'getTask', idempotent: true, options: DEFAULT_RETRY };
  const send: ClassifyContext = { method: 'sendMessage', idempotent: false, options: DEFAULT_RETRY };

  it('TaskNotCancelable is fatal as −32002, as 409 (1.0.0) and as 400 (1.0.1)', async () => {
    const sent = [
      await failWith(rpc, rpcError(-32002, [errorInfo('TASK_NOT_CANCELABLE')]), 'cancelTask'),
      await failWith(rest, rpcStatus(409, 'FAILED_PRECONDITION', [errorInfo('TASK_NOT_CANCELABLE')]), 'cancelTask'),
      await failWith(rest, rpcStatus(400, 'FAILED_PRECONDITION', [errorInfo('TASK_NOT_CANCELABLE')]), 'cancelTask'),
    ];
    for (const e of sent) {
      expect(e.a2aName).toBe('TaskNotCancelable');
      expect(classify(e, cancel), `${e.kind} ${e.status}`).toMatchObject({ retryable: false, countsAsFailure: false });
    }
  });

  it('InvalidAgentResponse as −32006, 502 (1.0.0) and 500 (1.0.1): retryable for reads, not for sends, a health failure', async () => {
    const scriptsOf = [rpcError(-32006, [errorInfo('INVALID_AGENT_RESPONSE')]), rpcStatus(502, 'INTERNAL', [errorInfo('INVALID_AGENT_RESPONSE')]), rpcStatus(500, 'INTERNAL', [errorInfo('INVALID_AGENT_RESPONSE')])];
    for (const [i, script] of scriptsOf.entries()) {
      const client = i === 0 ? rpc : rest;
      const read1 = await failWith(client, script);
      const send1 = await failWith(client, script, 'sendMessage');
      expect([read1.a2aName, send1.a2aName]).toEqual(['InvalidAgentResponse', 'InvalidAgentResponse']);
      expect(classify(read1, read), String(i)).toMatchObject({ retryable: true, countsAsFailure: true });
      expect(classify(send1, send), String(i)).toMatchObject({ retryable: false, countsAsFailure: true });
    }
  });

  it('ContentTypeNotSupported as −32005, 415 (1.0.0) and 400 (1.0.1) is fatal', async () => {
    const sent = [
      await failWith(rpc, rpcError(-32005), 'sendMessage'),
      await failWith(rest, rpcStatus(415, 'INVALID_ARGUMENT', [errorInfo('CONTENT_TYPE_NOT_SUPPORTED')]), 'sendMessage'),
      await failWith(rest, rpcStatus(400, 'INVALID_ARGUMENT', [errorInfo('CONTENT_TYPE_NOT_SUPPORTED')]), 'sendMessage'),
    ];
    for (const e of sent) {
      expect(e.a2aName).toBe('ContentTypeNotSupported');
      expect(classify(e, send)).toMatchObject({ retryable: false, countsAsFailure: false });
    }
  });
});
