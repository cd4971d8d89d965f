/**
 * Push notifications: instead of holding a stream open while an agent works for minutes or hours, the
 * coordinator registers a webhook for the task and reads its updates as they are pushed — each chunk
 * once and in order, whatever the agent repeats — until the task completes. The config is deleted
 * afterwards. Here the agent is a mock that pushes like a real one would, with the token the
 * receiver generated; anything without it is refused.
 *
 * Run by `npm test` (test/examples); after `npm run build` also `npm run example examples/push-notifications.ts` (every supported Node).
 */
import { createServer } from 'node:http';
import { z } from 'zod';
import { A2AClient } from 'a2a-resilient';
import { mockAgent, replyTask, type ScenarioContext } from 'a2a-resilient/mocks';
import { pushReceiver } from 'a2a-resilient/push';

/** Starts the webhook and the agent, registers, reads the pushes; returns what the coordinator saw. */
/** What the agent is given: the webhook URL and how to authenticate to it (A2A 1.0.1). */
const PushConfig = z.object({ url: z.string(), authentication: z.object({ scheme: z.string(), credentials: z.string() }) });

export async function main(): Promise<{ chunks: string[]; answer: string | undefined; forged: number; deletes: number }> {
  // 1. The coordinator's webhook: any node:http server (or `receiver.handleRequest` in any framework).
  const receiver = pushReceiver();
  const webhook = createServer(receiver.nodeListener);
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  const address = webhook.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/a2a/push`;

  // 2. An agent that answers "working" at once and pushes the rest to the webhook it is given.
  const agent = mockAgent({ name: 'researcher', version: '1.0', binding: 'JSONRPC' });
  agent.reply(replyTask({ state: 'working' }));
  agent.on('createTaskPushNotificationConfig', (ctx: ScenarioContext) => {
    const config = PushConfig.parse(ctx.params);
    const auth = `${config.authentication.scheme} ${config.authentication.credentials}`;
    const post = (body: object) => fetch(config.url, { method: 'POST', headers: { 'content-type': 'application/a2a+json', authorization: auth }, body: JSON.stringify(body) });
    const update = (artifactUpdate: object) => ({ artifactUpdate: { taskId: ctx.taskId, contextId: 'c', ...artifactUpdate } });
    setTimeout(async () => {
      await post(update({ append: false, artifact: { artifactId: 'report', parts: [{ text: 'Findings: ' }] } }));
      const second = update({ append: true, artifact: { artifactId: 'report', parts: [{ text: 'three sources agree.' }] } });
      await post(second);
      await post(second); // the agent's retry of a delivery it thinks was lost: dropped
      await post({ statusUpdate: { taskId: ctx.taskId, contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } });
    }, 50);
    return { type: 'wire', body: { taskId: ctx.taskId, url: config.url, id: 'cfg-1' } };
  });
  const server = await agent.listen();
  const client = await A2AClient.connect(server.url);
  try {
    const task = await client.sendMessage({ message: { parts: [{ kind: 'text', text: 'research this' }] }, configuration: { blocking: false } });
    const taskId = task.kind === 'task' ? task.id : '';

    // 3. Anyone else posting to the webhook is refused before their body is read.
    const forged = (await fetch(url, { method: 'POST', headers: { authorization: 'Bearer guess.guess' }, body: '{}' })).status;

    // 4. Register and read until the task completes.
    const chunks: string[] = [];
    let answer: string | undefined;
    for await (const event of receiver.register(client, taskId, { url })) {
      if (event.object === 'chat.completion.chunk' && event.state === undefined) chunks.push(event.text ?? '');
      if (event.done) answer = event.text;
    }
    await receiver.close(); // waits for the config's deletion
    return { chunks, answer, forged, deletes: agent.callsOf('deleteTaskPushNotificationConfig').length };
  } finally {
    await client.close();
    await server.close();
    await new Promise<void>((resolve) => webhook.close(() => resolve()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await main(), null, 2));
}
