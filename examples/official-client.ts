/**
 * The official `@a2a-js/sdk` client, unchanged, with this SDK's pipeline underneath: its
 * `ClientFactory` gets `resilientTransports()` and `resilientCardResolver()`. A send the agent refuses
 * with a 503 is repeated; a stream that drops mid-answer is resumed, and the client sees the stream as
 * if nothing had happened; an unknown task is the official `TaskNotFoundError`, with our
 * `A2AClientError` as its cause.
 *
 * Run by `npm test` (test/examples); after `npm run build` also `npm run example examples/official-client.ts`
 * (every supported Node; needs `npm install @a2a-js/sdk`).
 */
import { Role, type SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { isA2AClientError } from 'a2a-resilient';
import { resilientCardResolver, resilientTransports } from 'a2a-resilient/a2a-js';
import { failFirst, httpError, mockAgent, replyText, stream } from 'a2a-resilient/mocks';

function request(text: string): SendMessageRequest {
  const part = { content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
  const message = { messageId: crypto.randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts: [part], metadata: undefined, extensions: [], referenceTaskIds: [] };
  return { tenant: '', message, configuration: undefined, metadata: undefined };
}

/** Sends once, streams once and reads an unknown task; returns what each gave. */
export async function main(): Promise<{ reply: string; chunks: string[]; notFound: string }> {
  const billing = mockAgent({ name: 'billing', version: '1.0', binding: 'JSONRPC' })
    .on('sendMessage', failFirst(1, httpError(503), replyText('INV-7 is paid')))
    .on('sendStreamingMessage', stream([{ status: 'working' }, { artifact: 'INV-7: €1,200, ' }, { artifact: 'due 1 March', append: true }, { status: 'completed' }], { dropAfter: 2 }));
  const server = await billing.listen();
  try {
    const options = { timeouts: { totalMs: 10_000 }, retry: { baseDelayMs: 20 } };
    const factory = new ClientFactory({ transports: resilientTransports(options), cardResolver: resilientCardResolver(options) });
    const client = await factory.createFromUrl(server.url);

    // 1. The first send is refused with a 503 (nothing was processed): repeated, and answered.
    const sent = await client.sendMessage(request('is INV-7 paid?'));
    const first = 'parts' in sent ? sent.parts[0]?.content : undefined;
    const reply = first?.$case === 'text' ? first.value : '';

    // 2. The stream drops after two events: resumed, and the rest arrives as the appends it was.
    const chunks: string[] = [];
    for await (const item of client.sendMessageStream(request('summarise INV-7'))) {
      if (item.payload?.$case !== 'artifactUpdate') continue;
      for (const p of item.payload.value.artifact?.parts ?? []) if (p.content?.$case === 'text') chunks.push(p.content.value);
    }

    // 3. The official error class, with this SDK's error (kind, attempts, …) as its cause.
    let notFound = '';
    try {
      await client.getTask({ tenant: '', id: 'no-such-task' });
    } catch (error) {
      if (error instanceof TaskNotFoundError && isA2AClientError(error.cause)) notFound = `${error.name} (${error.cause.kind}, ${error.cause.a2aName ?? ''})`;
    }
    return { reply, chunks, notFound };
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await main());
