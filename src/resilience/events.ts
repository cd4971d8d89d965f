import { channel, type Channel } from 'node:diagnostics_channel';
import type { ResilienceEvent } from './options.js';

/** Names of the `node:diagnostics_channel` channels, one per event type: `a2a-resilient:<type>`. */
export const DIAGNOSTICS_CHANNELS: Readonly<Record<ResilienceEvent['type'], string>> = {
  retry: 'a2a-resilient:retry',
  'give-up': 'a2a-resilient:give-up',
  'breaker-open': 'a2a-resilient:breaker-open',
  'breaker-half-open': 'a2a-resilient:breaker-half-open',
  'breaker-close': 'a2a-resilient:breaker-close',
  'budget-exhausted': 'a2a-resilient:budget-exhausted',
  resubscribe: 'a2a-resilient:resubscribe',
  'shared-state': 'a2a-resilient:shared-state',
  cancel: 'a2a-resilient:cancel',
};

const channels = new Map<string, Channel>();

function channelFor(type: ResilienceEvent['type']): Channel {
  let found = channels.get(type);
  if (!found) {
    found = channel(DIAGNOSTICS_CHANNELS[type]);
    channels.set(type, found);
  }
  return found;
}

/** Receives resilience events (`options.onEvent`). */
export type EventSink = (event: ResilienceEvent) => void;

/**
 * Publishes `event` on its diagnostics channel (when anyone subscribed) and hands it to `onEvent`.
 * `publish: false` skips the channel (for events already published once per agent, like breaker
 * transitions). A throwing `onEvent` or subscriber is reported with `process.emitWarning` and never breaks the call.
 */
export function emitEvent(onEvent: EventSink | undefined, event: ResilienceEvent, publish = true): void {
  const ch = channelFor(event.type);
  if (publish && ch.hasSubscribers) {
    try {
      ch.publish(event);
    } catch (error) {
      warn(error);
    }
  }
  if (!onEvent) return;
  try {
    onEvent(event);
  } catch (error) {
    warn(error);
  }
}

function warn(error: unknown): void {
  const text = error instanceof Error ? error.message : String(error);
  process.emitWarning(`a2a-resilient: an onEvent listener threw: ${text}`, { code: 'A2A_RESILIENT_ON_EVENT' });
}
