import { createRequire } from 'node:module';
import { it } from 'vitest';
import { InMemoryRunner } from '@google/adk';
import { RemoteA2AAgent } from '@google/adk/a2a';
import { startOfficialServer } from '../helpers/official-server.js';

it('spike', async () => {
  const adkRequire = createRequire(createRequire(import.meta.url).resolve('@google/adk'));
  console.log(adkRequire.resolve('@a2a-js/sdk/client'));
  const server = await startOfficialServer();
  const agent = new RemoteA2AAgent({ name: 'remote', agentCard: server.baseUrl });
  const runner = new InMemoryRunner({ agent, appName: 'spike' });
  const t0 = performance.now();
  for await (const ev of runner.runEphemeral({ userId: 'u', newMessage: { role: 'user', parts: [{ text: 'stream 3' }] } })) {
    console.log(JSON.stringify({ author: ev.author, partial: ev.partial, content: ev.content, errorMessage: ev.errorMessage, turnComplete: ev.turnComplete }));
  }
  console.log('ms', performance.now() - t0, server.requests);
  await server.close();
});
