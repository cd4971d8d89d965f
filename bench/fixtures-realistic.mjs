/**
 * Wire payloads of the realistic workloads (issue 15): SSE artifact-update frames whose text chunk
 * has a chosen size, and a realistic completed Task for unary calls (10 history messages, two 8 KB
 * artifacts), each in the v1.0 and the v0.3 (kind-tagged) shape.
 */
import { streamFrames } from './fixtures.mjs';

/** ASCII filler text of exactly `bytes` bytes (words and spaces, no JSON escapes). */
export function fillerText(bytes) {
  const words = 'the quick brown fox jumps over a lazy dog while agents stream tokens ';
  return words.repeat(Math.ceil(bytes / words.length)).slice(0, bytes);
}

/**
 * The frames of one stream (`first`, `update`, `last`) whose artifact chunk text is `textBytes`
 * long; 1 byte gives the classic fixtures' "x" frames.
 */
export function sizedStreamFrames(idJson, legacy, textBytes) {
  const frames = streamFrames(idJson, legacy);
  if (textBytes === 1) return frames;
  const text = fillerText(textBytes);
  const needle = legacy ? '"kind":"text","text":"x"' : '"text":"x"';
  return { ...frames, update: frames.update.replace(needle, needle.replace('"x"', JSON.stringify(text))) };
}

function historyMessage(i, legacy) {
  const user = i % 2 === 0;
  const text = fillerText(user ? 120 : 480);
  if (legacy) {
    return { kind: 'message', messageId: `m-${i}`, role: user ? 'user' : 'agent', taskId: 'task-1', contextId: 'ctx-1', parts: [{ kind: 'text', text }] };
  }
  return { messageId: `m-${i}`, role: user ? 'ROLE_USER' : 'ROLE_AGENT', taskId: 'task-1', contextId: 'ctx-1', parts: [{ text }] };
}

function artifact(i, legacy) {
  const part = legacy ? { kind: 'text', text: fillerText(8192) } : { text: fillerText(8192) };
  return { artifactId: `artifact-${i}`, name: `report-${i}.md`, description: 'generated report', parts: [part], metadata: { chunkCount: 12 } };
}

/** A completed Task with 10 history messages and two 8 KB text artifacts (v0.3 shape when `legacy`). */
export function realisticTask(legacy) {
  const history = Array.from({ length: 10 }, (_, i) => historyMessage(i, legacy));
  const artifacts = [artifact(1, legacy), artifact(2, legacy)];
  const status = legacy
    ? { state: 'completed', timestamp: '2026-01-01T00:00:00.000Z', message: { ...historyMessage(9, true), messageId: 'm-status' } }
    : { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:00.000Z', message: { ...historyMessage(9, false), messageId: 'm-status' } };
  const task = { id: 'task-1', contextId: 'ctx-1', status, history, artifacts, metadata: { model: 'bench-1', tokens: 4321 } };
  return legacy ? { kind: 'task', ...task } : task;
}

const BODIES = new Map();

/** The JSON-RPC body of a realistic unary answer (request id spliced in as raw JSON). */
export function realisticUnaryBody(idJson, legacy) {
  let result = BODIES.get(legacy);
  if (!result) {
    result = JSON.stringify(legacy ? realisticTask(true) : { task: realisticTask(false) });
    BODIES.set(legacy, result);
  }
  return `{"jsonrpc":"2.0","id":${idJson},"result":${result}}`;
}
