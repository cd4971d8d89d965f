/**
 * Generators of malformed answers for the decoding properties: random JSON values, valid answers with a
 * random part replaced or removed, and whole response bodies (truncated, HTML, empty, huge numbers,
 * deep nesting, JSON-RPC envelopes with a wrong id, no result and no error, both, odd error members).
 */
import fc from 'fast-check';
import type { UnaryMethod } from '../../src/protocol/binding.js';

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const v1Task: Json = { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED', message: { messageId: 'm2', role: 'ROLE_AGENT', parts: [{ text: 'done' }] } }, artifacts: [{ artifactId: 'a1', parts: [{ text: 'x' }, { data: { k: 1 } }, { url: 'https://f', mediaType: 'text/plain' }] }], metadata: { error_code: 7 } };
const v03Task: Json = { kind: 'task', id: 't1', contextId: 'c1', status: { state: 'completed', message: { kind: 'message', messageId: 'm2', role: 'agent', parts: [{ kind: 'text', text: 'done' }] } }, artifacts: [{ artifactId: 'a1', parts: [{ kind: 'text', text: 'x' }, { kind: 'data', data: { k: 1 } }, { kind: 'file', file: { uri: 'https://f' } }] }], history: [] };
const url = 'http://127.0.0.1:1/a2a';

/** A valid answer (JSON-RPC `result`, or REST body) per version and method, plus one stream item. */
export const VALID: Record<'1.0' | '0.3', Record<UnaryMethod | 'stream', Json>> = {
  '1.0': {
    sendMessage: { task: v1Task },
    getTask: v1Task,
    listTasks: { tasks: [v1Task], nextPageToken: '', pageSize: 1, totalSize: 1 },
    cancelTask: v1Task,
    createTaskPushNotificationConfig: { taskId: 't1', id: 'c', url: 'https://h', token: 'tok', authentication: { scheme: 'Bearer', credentials: 'x' } },
    getTaskPushNotificationConfig: { taskId: 't1', id: 'c', url: 'https://h', authentication: { schemes: ['Bearer'] } },
    listTaskPushNotificationConfig: { configs: [{ taskId: 't1', url: 'https://h' }] },
    deleteTaskPushNotificationConfig: null,
    getExtendedAgentCard: { name: 'x', description: 'd', version: '1', supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [] },
    stream: { artifactUpdate: { taskId: 't1', contextId: 'c1', artifact: { artifactId: 'a1', parts: [{ text: 'x' }] }, append: true } },
  },
  '0.3': {
    sendMessage: v03Task,
    getTask: v03Task,
    listTasks: null,
    cancelTask: v03Task,
    createTaskPushNotificationConfig: { taskId: 't1', pushNotificationConfig: { id: 'c', url: 'https://h', token: 'tok', authentication: { schemes: ['Bearer', 'Basic'], credentials: 'x' } } },
    getTaskPushNotificationConfig: { taskId: 't1', pushNotificationConfig: { url: 'https://h' } },
    listTaskPushNotificationConfig: [{ taskId: 't1', pushNotificationConfig: { url: 'https://h' } }],
    deleteTaskPushNotificationConfig: null,
    getExtendedAgentCard: { name: 'x', description: 'd', version: '1', url, protocolVersion: '0.3.0', capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [] },
    stream: { kind: 'status-update', taskId: 't1', contextId: 'c1', status: { state: 'working' }, final: false },
  },
};

/** A value `depth` arrays deep (parsers and recursive walkers must not blow the stack on it). */
function deep(depth: number): Json {
  let v: Json = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** Values that trip careless code: special numbers, empty containers, look-alike enum values, prototype keys. */
const SPECIAL: Json[] = [
  null,
  '',
  0,
  -1,
  1e308,
  -1e308,
  2 ** 53 + 2,
  0.5,
  true,
  [],
  {},
  'TASK_STATE_COMPLETED',
  'completed',
  'task',
  'message',
  'status-update',
  'ROLE_USER',
  JSON.parse('{"__proto__":{"kind":"task","id":"p"}}') as Json,
  { constructor: { prototype: { polluted: true } } },
  { toString: 'x', valueOf: 1 },
  deep(3_000),
];

/** Random JSON values, with the special ones often. */
export const weirdJson: fc.Arbitrary<Json> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL) },
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
);

/** `base` with one node replaced by a random value, removed, or wrapped in an array, at a random path. */
export function mutated(base: Json): fc.Arbitrary<Json> {
  return fc
    .tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), fc.constantFrom('replace', 'delete', 'wrap'), weirdJson)
    .map(([path, op, value]) => {
      const root = structuredClone(base);
      let parent: Json = root;
      let key: string | number | undefined;
      let node: Json = root;
      for (const step of path) {
        if (typeof node !== 'object' || node === null) break;
        const keys: Array<string | number> = Array.isArray(node) ? node.map((_v, i) => i) : Object.keys(node);
        if (keys.length === 0) break;
        parent = node;
        key = keys[step % keys.length] as string | number;
        node = (node as Record<string | number, Json>)[key] as Json;
      }
      if (key === undefined) return op === 'wrap' ? [root] : value;
      const holder = parent as Record<string | number, Json>;
      if (op === 'delete') delete holder[key];
      else holder[key] = op === 'wrap' ? [node] : value;
      return root;
    });
}

const html = fc.constantFrom('<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>', '<html>', '<?xml version="1.0"?><error/>');
const empty = fc.constantFrom('', ' ', '\n\r\t', '\uFEFF');
const huge = fc.constantFrom('1e999', '-1e999', '123456789012345678901234567890', '{"id":1e999}', '{"code":1e999,"message":"x"}', '[' + '1,'.repeat(10_000) + '1]');
const nonObject = fc.constantFrom('null', '[]', '"string"', '42', 'true', '[{"jsonrpc":"2.0"}]');
const problem = fc
  .record({ type: weirdJson, title: weirdJson, status: weirdJson, detail: weirdJson, retry_after_ms: weirdJson, retryable: weirdJson, error: weirdJson }, { requiredKeys: [] })
  .map((p) => JSON.stringify(p));
const rpcStatus = fc
  .record({ code: weirdJson, status: weirdJson, message: weirdJson, details: fc.oneof(weirdJson, fc.array(fc.record({ '@type': fc.constantFrom('type.googleapis.com/google.rpc.ErrorInfo', 'type.googleapis.com/google.rpc.RetryInfo'), reason: weirdJson, retryDelay: weirdJson, metadata: weirdJson }, { requiredKeys: ['@type'] }))) }, { requiredKeys: [] })
  .map((e) => JSON.stringify({ error: e }));
const randomText = fc.oneof(fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)), fc.string({ maxLength: 40 }));
const deepText = fc.constant('['.repeat(50_000) + ']'.repeat(50_000));

/** A JSON-RPC error object, valid or not. */
const rpcError: fc.Arbitrary<Json> = fc.oneof(
  fc.record({ code: fc.oneof(fc.integer({ min: -32999, max: -32000 }), fc.constantFrom(-32603, -32001, -32700)), message: fc.string({ maxLength: 20 }), data: weirdJson }, { requiredKeys: ['code'] }),
  mutated({ code: -32001, message: 'Task not found', data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND' }] }),
  weirdJson,
);

/**
 * Random response bodies for a version, as a function of the request's JSON-RPC id. `rpc` set: JSON-RPC
 * envelopes too ('echo' echoes the request id; a number is used as the id); unset: REST bodies.
 */
export function malformedBody(version: '1.0' | '0.3', rpc?: 'echo' | number): fc.Arbitrary<(id: Json) => string> {
  const valid = VALID[version];
  const result = fc.oneof(fc.constantFrom(valid.getTask, valid.sendMessage), mutated(valid.getTask), mutated(valid.sendMessage), weirdJson);
  const texts: Array<fc.Arbitrary<string>> = [
    html,
    empty,
    huge,
    nonObject,
    problem,
    rpcStatus,
    randomText,
    deepText,
    result.map((r) => JSON.stringify(r)),
    result.chain((r) => {
      const t = JSON.stringify(r);
      return fc.nat({ max: Math.max(0, t.length - 1) }).map((n) => t.slice(0, n));
    }),
  ];
  const fixed = fc.oneof(...texts).map((t) => () => t);
  if (rpc === undefined) return fixed;
  const idOf = (id: Json): Json => (rpc === 'echo' ? id : rpc);
  const idMode = fc.constantFrom('echo', 'other', 'string', 'null', 'missing', 'huge');
  const withId = (mode: string, id: Json): Record<string, Json> => {
    if (mode === 'missing') return {};
    if (mode === 'echo') return { id };
    if (mode === 'other') return { id: typeof id === 'number' ? id + 1 : 'other' };
    if (mode === 'string') return { id: String(id) };
    if (mode === 'huge') return { id: 1e308 };
    return { id: null };
  };
  const envelope = fc
    .tuple(idMode, fc.constantFrom('result', 'error', 'both', 'neither', 'bad-version'), result, rpcError)
    .map(([mode, shape, r, e]) => (id: Json) => {
      const env: Record<string, Json> = { jsonrpc: shape === 'bad-version' ? '1.0' : '2.0', ...withId(mode, idOf(id)) };
      if (shape === 'result' || shape === 'both' || shape === 'bad-version') env.result = r;
      if (shape === 'error' || shape === 'both') env.error = e;
      return JSON.stringify(env);
    });
  const mutatedEnvelope = fc
    .tuple(mutated({ jsonrpc: '2.0', id: 0, result: valid.getTask }), fc.boolean())
    .map(([env, echo]) => (id: Json) => {
      const e = env as Record<string, Json> | null;
      if (echo && typeof e === 'object' && e !== null && !Array.isArray(e) && 'id' in e) e.id = idOf(id);
      return JSON.stringify(env);
    });
  return fc.oneof({ weight: 2, arbitrary: fixed }, { weight: 3, arbitrary: envelope }, { weight: 2, arbitrary: mutatedEnvelope });
}
