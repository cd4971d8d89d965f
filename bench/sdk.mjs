/**
 * Loads the SDK under test from its built output (package self-reference → dist/). A failed load is
 * returned, not thrown, so the harness can still run and validate its baselines.
 */

/** Resolves `{ sdk }` with the module namespace of 'a2a-resilient', or `{ error }` (a message). */
export async function loadSdk() {
  try {
    const sdk = await import('a2a-resilient');
    if (typeof sdk.A2AClient?.connect !== 'function') return { error: 'a2a-resilient has no A2AClient.connect' };
    return { sdk };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** The SendMessage params of the stable contract, for a text. */
export function textParams(text) {
  return { message: { role: 'user', parts: [{ kind: 'text', text }] } };
}

/** Throws when an AgentEvent list ends in a terminal error (so failures never count as throughput). */
export function assertNoTerminalError(sdk, events) {
  const bad = events.find((ev) => sdk.isTerminalError(ev));
  if (bad) throw new Error(`a2a-resilient returned an error event: ${bad.error?.type} ${bad.error?.code ?? ''} ${bad.error?.message}`);
}

/**
 * Reads one of our streams for `text` to its end and counts its items: `stream()` AgentEvents (an
 * error event throws) when `useStream`, else `sendStreamingMessage` events. As a caller printing the
 * answer would, `stream()`'s reader keeps the final event's text (the whole answer, unless it was
 * longer than the call's `accumulate`) and hands its length and `answerOmitted` to `onAnswer`.
 */
export async function countOurStream(sdk, client, useStream, text, streamOptions = {}, onAnswer = undefined) {
  let count = 0;
  if (useStream) {
    let answer = '';
    let omitted = false;
    for await (const ev of client.stream(text, streamOptions)) {
      if (sdk.isTerminalError(ev)) throw new Error(`stream() error event: ${ev.error?.message}`);
      if (ev.done) {
        answer = ev.text ?? '';
        omitted = ev.answerOmitted === true;
      }
      count++;
    }
    onAnswer?.(answer.length, omitted);
  } else {
    for await (const ev of client.sendStreamingMessage(textParams(text))) if (ev) count++;
  }
  return count;
}
