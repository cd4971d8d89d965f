import type { A2AClient } from '../client/a2a-client.js';
import { errorEvent } from '../convert/safe-convert.js';
import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import { holdSecret } from '../errors/held-secrets.js';
import type { Task } from '../protocol/model.js';
import type { PushNotificationConfig } from '../protocol/method-params.js';
import type { PushReceiverEvent, PushRegisterOptions } from './options.js';
import { PushStop, type PushSubscription } from './subscription.js';

/** What `register()` hands over. */
export interface RegisterInit {
  client: A2AClient;
  taskId: string;
  options: PushRegisterOptions;
  /** The token the agent is to send back (default authentication), or none. */
  token: string | undefined;
  emit: (event: PushReceiverEvent) => void;
  /** Keeps a background deletion for `close()` to wait on. */
  track: (promise: Promise<void>) => void;
}

/** The config for `url` carrying `token` where `tokenIn` says (a JWT or function `auth`: no token). */
export function pushConfigFor(url: string, token: string | undefined, tokenIn: PushRegisterOptions['tokenIn'] = 'both'): PushNotificationConfig {
  if (token === undefined) return { url };
  return {
    url,
    ...(tokenIn === 'authentication' ? {} : { token }),
    ...(tokenIn === 'token' ? {} : { authentication: { scheme: 'Bearer', credentials: token } }),
  };
}

function asClientError(error: unknown, agent: string): A2AClientError {
  if (isA2AClientError(error)) return error;
  // Not a remote failure (a bug): kept as the cause of a typed error, so the iteration still ends with one.
  return new A2AClientError({ kind: 'invalid-response', message: 'registering the push config failed unexpectedly', cause: error, agent, method: 'createTaskPushNotificationConfig' });
}

/**
 * The registration of one iteration: create the config, read the task once (what happened before
 * the config existed; deliveries that arrive meanwhile are held and reconciled after it), and delete
 * the config when the iteration ends — after its creation settled, so a config is never left behind
 * by an iteration that ended early. The token is a secret of these calls, like a header value: it
 * is redacted from their failures (an agent's error answer may echo the config) — errors, events,
 * `onEvent`, diagnostics and traces — from the create until the delete settled.
 */
export function registerTask(init: RegisterInit): { start: (subscription: PushSubscription) => void; end: () => void } {
  const { client, taskId, options, token, emit, track } = init;
  const call = options.call ?? {};
  let ended = false;
  let created: Promise<string | undefined> = Promise.resolve(undefined);
  const release = token === undefined ? (): void => undefined : holdSecret(token);

  const create = async (subscription: PushSubscription): Promise<string | undefined> => {
    subscription.hold();
    const signal = options.signal ?? call.signal;
    const config = pushConfigFor(options.url, token, options.tokenIn);
    let configId: string;
    try {
      const made = await client.createTaskPushNotificationConfig({ taskId, config }, signal ? { ...call, signal } : call);
      // A v0.3 agent that assigns no id uses the task id (A2A 0.3).
      configId = made.config.id ?? taskId;
    } catch (error) {
      subscription.release();
      subscription.stop(new PushStop((agent) => errorEvent(asClientError(error, agent), agent)));
      return undefined;
    }
    if (ended) return configId;
    let snapshot: Task | undefined;
    try {
      snapshot = await client.getTask({ id: taskId }, signal ? { ...call, signal } : call);
    } catch (error) {
      emit({ type: 'snapshot-failed', taskId, error: asClientError(error, client.name) });
    }
    subscription.release(snapshot);
    return configId;
  };

  const remove = async (): Promise<void> => {
    const configId = await created;
    if (configId === undefined) return release();
    try {
      // Not the caller's signal: it may be what ended the iteration.
      const rest = { ...call };
      delete rest.signal;
      await client.deleteTaskPushNotificationConfig({ taskId, configId }, rest);
      emit({ type: 'config-delete', taskId, configId, outcome: 'deleted' });
    } catch (error) {
      emit({ type: 'config-delete', taskId, configId, outcome: 'failed', error: asClientError(error, client.name) });
    } finally {
      release();
    }
  };

  return {
    start: (subscription) => {
      created = create(subscription).catch((error: unknown) => {
        subscription.stop(new PushStop((agent) => errorEvent(asClientError(error, agent), agent)));
        return undefined;
      });
    },
    end: () => {
      if (ended) return;
      ended = true;
      track(remove());
    },
  };
}
