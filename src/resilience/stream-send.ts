import type { CallScope } from '../transport/call-scope.js';
import { afterLostSend, type FoundSend } from './lost-send.js';
import type { OpenedSource, ResumableStreamOptions } from './resume-options.js';
import { openSource, sourceOf, streamRound } from './resume-round.js';
import type { RetryPolicy } from './retry-policy.js';

/**
 * Opens what `o.open` names — the send (or subscribe) that starts a stream — through the pipeline
 * with the stream's attempts. A send that fails before its first event with its fate unknown is
 * looked up (`lost-send.ts`): found → the task it started, for the stream to follow; absent → opened
 * again (the same message). The agent's first answer to a send tells `o.lookup` how it answers.
 * @throws A2AClientError — as `openSource`, or as `afterLostSend`.
 */
export async function openStream(o: ResumableStreamOptions, scope: CallScope, policy: RetryPolicy): Promise<OpenedSource | FoundSend> {
  const open = (source: CallScope, attempt: number) => sourceOf(o.requests, o.open, source, attempt);
  let opened: OpenedSource;
  try {
    opened = await openSource(o, scope, o.method, o.idempotent, open, streamRound(policy.options.maxAttempts, false, true));
  } catch (error) {
    const sent = o.open;
    if (sent.method === 'subscribeToTask') throw error;
    const outcome = await afterLostSend(
      {
        call: o,
        onEvent: o.onEvent,
        policy,
        scope,
        message: sent.params.message,
        lookup: o.lookup,
        resend: (maxAttempts) => openSource(o, scope, o.method, o.idempotent, open, streamRound(maxAttempts, true, true)),
      },
      error,
    );
    if ('found' in outcome) return outcome;
    opened = outcome.sent;
  }
  const first = opened.first.done === true ? undefined : opened.first.value[0];
  if (first !== undefined && o.open.method !== 'subscribeToTask') o.lookup?.answers.saw(first, o.open.params.message);
  return opened;
}
