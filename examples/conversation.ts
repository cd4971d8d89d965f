/**
 * Conversations: a travel agent asks twice for more input before it books; the conversation carries
 * the context and the open task from turn to turn, survives a "restart" through its JSON state, and
 * after the booking the next request starts a new task in the same context that references it.
 *
 * Run by `npm test` (test/examples); after `npm run build` also `npm run example examples/conversation.ts` (every supported Node).
 */
import { A2AClient, type ConversationSnapshot } from 'a2a-resilient';
import { mockAgent, replyTask } from 'a2a-resilient/mocks';
import { z } from 'zod';

/** The ids of a message as the mock agent received it. */
const Sent = z.object({ message: z.object({ taskId: z.string().optional(), referenceTaskIds: z.array(z.string()).optional() }) });

/** Runs the conversation; returns what each turn showed and what the agent was sent. */
export async function main(): Promise<{
  turns: Array<{ text: string | undefined; state: string | undefined; openTask: boolean }>;
  sameTask: boolean;
  saved: ConversationSnapshot;
  references: string[] | undefined;
}> {
  // A mock travel agent: two questions, the booking, then a hotel.
  const agent = mockAgent({ name: 'travel', version: '1.0', binding: 'JSONRPC' });
  agent.reply(
    replyTask({ state: 'input-required', statusMessage: 'Where to?' }),
    replyTask({ state: 'input-required', statusMessage: 'Which day?' }),
    replyTask({ state: 'completed', artifacts: ['Flight LH 123 to Paris on Friday, booked.'] }),
    replyTask({ state: 'completed', artifacts: ['Hotel Lutetia, Friday to Sunday.'] }),
  );
  const server = await agent.listen();
  const turns: Array<{ text: string | undefined; state: string | undefined; openTask: boolean }> = [];

  // 1. The first process: two turns, then it saves the conversation (a database, a queue, Redis...).
  let saved: ConversationSnapshot;
  const first = await A2AClient.connect(server.url);
  try {
    const chat = first.conversation();
    for (const text of ['Book me a flight', 'To Paris']) {
      const answer = (await chat.invoke(text)).at(-1);
      turns.push({ text: answer?.text, state: chat.state, openTask: chat.taskId !== undefined });
    }
    saved = chat.toJSON();
  } finally {
    await first.close();
  }

  // 2. Another process (or replica) picks it up from the saved JSON and answers the last question.
  const second = await A2AClient.connect(server.url);
  try {
    const chat = second.conversation(JSON.parse(JSON.stringify(saved)) as ConversationSnapshot);
    for await (const event of chat.stream('Friday')) {
      if (event.done) turns.push({ text: event.text, state: chat.state, openTask: chat.taskId !== undefined });
    }
    // 3. The flight task is completed: this turn starts a new task in the same context, referencing it.
    const hotel = (await chat.invoke('And a hotel for two nights')).at(-1);
    turns.push({ text: hotel?.text, state: chat.state, openTask: chat.taskId !== undefined });
  } finally {
    await second.close();
    await server.close();
  }

  // What the agent was sent: the first three turns went to one task; the fourth referenced it.
  const sent = agent.calls.map((c) => Sent.parse(c.params).message);
  const flightTask = sent[1]?.taskId;
  return {
    turns,
    sameTask: flightTask !== undefined && sent[2]?.taskId === flightTask,
    saved,
    references: sent[3]?.referenceTaskIds,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await main(), null, 2));
}
