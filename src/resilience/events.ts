import { platform } from '../platform/current.js';
import type { EventChannel } from '../platform/platform.js';
import type { ResilienceEvent } from './event-types.js';

/**
 * Names of the `node:diagnostics_channel` channels, one per event type: `a2a-resilient:<type>`. The web
 * build publishes on none (it has no diagnostics_channel); `onEvent` gets every event everywhere.
 */
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
  'send-lookup': 'a2a-resilient:send-lookup',
};

const channels = new Map<string, EventChannel>();

function channelFor(type: ResilienceEvent['type']): EventChannel {
  let found = channels.get(type);
  if (!found) {
    found = platform.channel(DIAGNOSTICS_CHANNELS[type]);
    channels.set(type, found);
  }
  return found;
}

/** Receives resilience events (`options.onEvent`). */
export type EventSink = (event: ResilienceEvent) => void;

/**
 * Publishes `event` on its diagnostics channel (when anyone subscribed) and hands it to `onEvent`.
 * `publish: false` skips the channel (for events already published once per agent, like breaker
 * transitions). A throwing `onEvent` or subscriber is reported as a warning (`process.emitWarning` on Node, the console elsewhere) and never breaks the call.
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
  platform.warn(`a2a-resilient: an onEvent listener threw: ${text}`, 'A2A_RESILIENT_ON_EVENT');
}
