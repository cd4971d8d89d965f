/**
 * The protocol-level API: typed A2A calls that resolve with protocol objects and throw one
 * `A2AClientError` you narrow on `kind`. Shows a per-call deadline, a caller's abort, and reading a
 * task back.
 *
 * Run by `npm test` (test/examples); after `npm run build` also `npm run example examples/protocol-level.ts` (every supported Node).
 */
import { A2AClient, isA2AClientError, type Task } from 'a2a-resilient';
import { hang, mockAgent, replyTask } from 'a2a-resilient/mocks';

/** Makes three calls and returns what each one ended with. */
export async function main(): Promise<{ task: Task; deadline: string; aborted: string }> {
  const agent = mockAgent({ name: 'reports', version: '1.0', binding: 'JSONRPC' });
  agent.once('sendMessage', replyTask({ state: 'completed', artifacts: ['Q3 revenue: 4.2M'] }));
  const server = await agent.listen();
  const client = await A2AClient.connect(server.url);
  try {
    // 1. A send, then the task read back by id.
    const sent = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'Q3 report' }] } });
    if (sent.kind !== 'task') throw new Error('expected a task');
    const task = await client.getTask({ id: sent.id, historyLength: 10 });

    // 2. A per-call deadline: one budget for every attempt and wait of this call.
    agent.on('sendMessage', hang());
    const deadline = await client
      .sendMessage({ message: { parts: [{ kind: 'text', text: 'slow' }] } }, { timeouts: { totalMs: 200 } })
      .then(() => 'answered', (error: unknown) => (isA2AClientError(error) ? error.kind : 'unexpected'));

    // 3. The caller gives up: an AbortSignal ends the call at once.
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user navigated away')), 50);
    const aborted = await client
      .sendMessage({ message: { parts: [{ kind: 'text', text: 'slow' }] } }, { signal: controller.signal })
      .then(() => 'answered', (error: unknown) => (isA2AClientError(error) ? error.kind : 'unexpected'));

    return { task, deadline, aborted };
  } finally {
    await client.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await main(), null, 2));
}
