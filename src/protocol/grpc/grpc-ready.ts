/**
 * The connect phase of a gRPC call: waiting for the channel to be READY, bounded by
 * `timeouts.connectMs` (kind `connect-timeout`) and the call's scope. A channel that fails to connect
 * fails the call with kind `connection` before anything was sent (safe to retry, sends included).
 */
import type { ChannelInterface as Channel } from '@grpc/grpc-js';
import { A2AClientError } from '../../errors/a2a-client-error.js';
import type { CallScope } from '../../transport/call-scope.js';

/** grpc-js `connectivityState` values. */
const IDLE = 0;
const CONNECTING = 1;
const READY = 2;
const TRANSIENT_FAILURE = 3;

function refused(target: string): A2AClientError {
  return new A2AClientError({ kind: 'connection', reason: 'refused', message: `gRPC channel to ${target} could not connect`, phase: 'before-send' });
}

/**
 * `undefined` when the channel is READY now; else a promise that resolves once it is. A channel in TRANSIENT_FAILURE (its last connection attempt
 * failed; grpc-js keeps the state "sticky" while it reconnects in the background with backoff) fails
 * at once as refused: the pipeline's own backoff decides when to try again, and the channel is READY
 * as soon as the agent is back. On a TLS channel (`secure`) it resolves instead: the call then fails
 * at once without being sent, with grpc-js's last connection error, which tells a certificate
 * failure (not worth repeating) from a refused connection (see `grpc-call.ts`).
 * @throws A2AClientError `connection` (refused, before send), `connect-timeout` (armed on `scope`),
 * or the scope's failure (`deadline-exceeded`, `aborted`).
 */
export function channelReady(channel: Channel, scope: CallScope, target: string, connectMs: number, secure = false): Promise<void> | undefined {
  let state = channel.getConnectivityState(true);
  if (state === READY) return undefined;
  if (state === TRANSIENT_FAILURE) return secure ? undefined : Promise.reject(refused(target));
  scope.arm('connect-timeout', connectMs);
  const waited = new Promise<void>((resolve, reject) => {
    const watch = (): void => {
      if (scope.aborted) return;
      // The scope's own timers bound the wait; this far-off deadline only keeps grpc-js's watch finite.
      channel.watchConnectivityState(state, Date.now() + Math.min(scope.timeLeft(), connectMs) + 1_000, (error?: Error) => {
        if (scope.aborted) return;
        if (error !== undefined) {
          reject(new A2AClientError({ kind: 'connect-timeout', message: `gRPC channel to ${target} not ready within ${connectMs} ms`, phase: 'before-send', cause: error }));
          return;
        }
        state = channel.getConnectivityState(true);
        if (state === READY) return resolve();
        if (state !== CONNECTING && state !== IDLE) return secure ? resolve() : reject(refused(target));
        watch();
      });
    };
    watch();
  });
  return scope.race(waited).finally(() => scope.disarm());
}
