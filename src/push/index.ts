/**
 * a2a-resilient/push — a receiver for A2A push notifications, for coordinators that register a
 * webhook instead of holding a stream open for hours. Web-standard (`Request` → `Response`): any
 * runtime and framework; `nodeListener` for `node:http` / express.
 *
 * @example
 * import { A2AClient } from 'a2a-resilient';
 * import { pushReceiver } from 'a2a-resilient/push';
 * const receiver = pushReceiver();
 * http.createServer(receiver.serverOptions, receiver.nodeListener).listen(8080);
 * const task = await client.sendMessage({ message, configuration: { blocking: false } });
 * for await (const ev of receiver.register(client, task.id, { url: 'https://me.example/a2a/push' })) {
 *   console.log(ev.text);
 * }
 *
 * @module a2a-resilient/push
 */
import type { PushReceiverOptions } from './options.js';
import { PushReceiver } from './receiver.js';

export { PushReceiver } from './receiver.js';
export type { PushAuthFunction, PushEventsOptions, PushJwtAuth, PushReceiverEvent, PushReceiverOptions, PushRegisterOptions, PushServerOptions } from './options.js';

/**
 * A push-notification receiver (see {@link PushReceiver}). With no options it is safe as it is: only
 * deliveries carrying a token that `register()` generated for their task are let in.
 * @throws TypeError for an `auth` of an unknown shape or a size, depth or time option that is not a positive integer.
 */
export function pushReceiver(options: PushReceiverOptions = {}): PushReceiver {
  return new PushReceiver(options);
}
