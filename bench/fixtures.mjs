/**
 * Wire payloads served by the benchmark agent: a v1.0 agent card (JSON-RPC first), a small completed
 * Task for SendMessage, and SSE frames for SendStreamingMessage. v0.3 variants (`message/send`,
 * `message/stream`) are kept for clients that only speak the older protocol.
 */

/** The v1.0 agent card for an agent listening on `port` (JSON-RPC v1.0 first, then v0.3). */
export function agentCard(port, name) {
  const url = `http://127.0.0.1:${port}/a2a/jsonrpc`;
  return {
    name,
    description: 'Minimal loopback agent for benchmarks.',
    version: '1.0.0',
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'echo', description: 'answers at once', tags: ['bench'] }],
  };
}

const TASK_V1 = {
  id: 'task-1',
  contextId: 'ctx-1',
  status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:00.000Z' },
  artifacts: [{ artifactId: 'a-1', parts: [{ text: 'pong' }] }],
};

const TASK_V03 = {
  kind: 'task',
  id: 'task-1',
  contextId: 'ctx-1',
  status: { state: 'completed', timestamp: '2026-01-01T00:00:00.000Z' },
  artifacts: [{ artifactId: 'a-1', parts: [{ kind: 'text', text: 'pong' }] }],
};

/** Body of a unary answer (the request id is spliced in as raw JSON). */
export function unaryBody(idJson, legacy) {
  const result = legacy ? TASK_V03 : { task: TASK_V1 };
  return `{"jsonrpc":"2.0","id":${idJson},"result":${JSON.stringify(result)}}`;
}

/** The pieces of one SSE stream: first frame, one artifact-update frame, last frame. */
export function streamFrames(idJson, legacy) {
  const head = `data: {"jsonrpc":"2.0","id":${idJson},"result":`;
  if (legacy) {
    return {
      first: `${head}${JSON.stringify({ ...TASK_V03, status: { state: 'working' }, artifacts: [] })}}\n\n`,
      update: `${head}{"kind":"artifact-update","taskId":"task-1","contextId":"ctx-1","artifact":{"artifactId":"a-1","parts":[{"kind":"text","text":"x"}]},"append":true,"lastChunk":false}}\n\n`,
      last: `${head}{"kind":"status-update","taskId":"task-1","contextId":"ctx-1","status":{"state":"completed"},"final":true}}\n\n`,
    };
  }
  return {
    first: `${head}{"task":{"id":"task-1","contextId":"ctx-1","status":{"state":"TASK_STATE_WORKING"}}}}\n\n`,
    update: `${head}{"artifactUpdate":{"taskId":"task-1","contextId":"ctx-1","artifact":{"artifactId":"a-1","parts":[{"text":"x"}]},"append":true}}}\n\n`,
    last: `${head}{"statusUpdate":{"taskId":"task-1","contextId":"ctx-1","status":{"state":"TASK_STATE_COMPLETED"}}}}\n\n`,
  };
}

/** How many events a streaming request asks for: the text "stream <N>" of its first part. */
export function requestedEvents(params, fallback) {
  const parts = params?.message?.parts;
  const first = Array.isArray(parts) ? parts[0] : undefined;
  const text = typeof first?.text === 'string' ? first.text : '';
  const match = /^stream (\d+)$/.exec(text);
  return match ? Number(match[1]) : fallback;
}
