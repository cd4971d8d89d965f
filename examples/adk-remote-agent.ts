/**
 * Google ADK (`@google/adk`): a `RemoteA2AAgent` whose calls run through this SDK's pipeline. A local
 * mock agent (real HTTP on 127.0.0.1) refuses the first send with a 503 and drops its stream after the
 * first chunk; ADK's `InMemoryRunner` runs the remote agent as its root (no LLM) and still gets the whole
 * answer, once: the 503 retried, the stream resumed.
 *
 * Run by `npm test` (test/examples). By hand, after `npm run build`: `npm run example examples/adk-remote-agent.ts`
 * (every supported Node).
 */
import { createRequire } from 'node:module';
import { InMemoryRunner } from '@google/adk';
import { RemoteA2AAgent, type RemoteA2AAgentConfig } from '@google/adk/a2a';
import { resilientTransportsV03, type TransportFactoryV03 } from 'a2a-resilient/a2a-js';
import { failFirst, httpError, mockAgent, stream } from 'a2a-resilient/mocks';

// ADK calls agents through its own copy of @a2a-js/sdk 0.3. When your app depends on @a2a-js/sdk 1.x, that
// copy is nested under @google/adk: load the ClientFactory ADK itself resolves (with an app on 0.3, npm
// shares one copy and `import { ClientFactory } from '@a2a-js/sdk/client'` is the same class).
const fromAdk = createRequire(createRequire(import.meta.url).resolve('@google/adk'));
const { ClientFactory } = fromAdk('@a2a-js/sdk/client') as {
  ClientFactory: new (options: { transports: TransportFactoryV03[] }) => NonNullable<RemoteA2AAgentConfig['clientFactory']>;
};

/** Runs the remote agent once through ADK; returns what was printed: the streamed chunks and the answer. */
export async function main(): Promise<{ chunks: string[]; answer: string; sends: number }> {
  const billing = mockAgent({ name: 'billing', version: '0.3', binding: 'JSONRPC' }).on(
    'sendStreamingMessage',
    failFirst(1, httpError(503), stream([{ status: 'working' }, { artifact: 'INV-7: €1,200, ' }, { artifact: 'due 1 March', append: true, lastChunk: true }, { status: 'completed' }], { dropAfter: 2 })),
  );
  const server = await billing.listen();
  try {
    const agent = new RemoteA2AAgent({
      name: 'billing',
      agentCard: server.url, // ADK fetches the card itself
      clientFactory: new ClientFactory({ transports: resilientTransportsV03({ timeouts: { totalMs: 10_000 }, retry: { baseDelayMs: 50 } }) }),
    });
    const runner = new InMemoryRunner({ agent, appName: 'adk-remote-agent' });

    const chunks: string[] = [];
    let answer = '';
    for await (const event of runner.runEphemeral({ userId: 'user-1', newMessage: { role: 'user', parts: [{ text: 'Summarise invoice INV-7' }] } })) {
      if (event.errorMessage !== undefined) throw new Error(`the remote agent failed: ${event.errorMessage}`); // all ADK keeps of an error
      const text = (event.content?.parts ?? []).map((part) => part.text ?? '').join('');
      if (event.partial) {
        chunks.push(text);
        console.log(`chunk: ${text}`);
      } else if (text !== '') {
        answer = text; // ADK's aggregation of the streamed artifact: the whole answer
      }
    }
    console.log(`answer: ${answer}`);
    return { chunks, answer, sends: billing.callsOf('sendStreamingMessage').length };
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
