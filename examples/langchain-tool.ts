/**
 * A remote A2A agent as a LangChain.js tool: a model (LangChain's fake chat model, no LLM, no network)
 * asks for a tool call, the tool answers with a ToolMessage whose content is the result as JSON — a
 * failed task included — and a call aborted through its signal cancels the agent's task.
 *
 * Run by `npm test` (test/examples); after `npm run build` also `npm run example examples/langchain-tool.ts` (every supported Node).
 */
import { AIMessageChunk, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { A2AClient } from 'a2a-resilient';
import { a2aTool, type A2AToolResult } from 'a2a-resilient/langchain';
import { failedTask, mockAgent, replyText, stream } from 'a2a-resilient/mocks';

/** Runs a tool call on a working agent, one on a failing agent, and one aborted call. */
export async function main(): Promise<{ answer: A2AToolResult; failure: A2AToolResult; aborted: string; cancelled: number }> {
  // Local mock agents on 127.0.0.1 (real HTTP). In production these are your agents' URLs.
  const billingAgent = mockAgent({ name: 'billing', version: '1.0', binding: 'JSONRPC' }).on('sendMessage', replyText('INV-7: €1,200, due 1 March'));
  const ledgerAgent = mockAgent({ name: 'ledger', version: '1.0', binding: 'JSONRPC' })
    .on('sendMessage', failedTask({ error_type: 'flow_error', error_code: 'LEDGER_LOCKED', error_message: 'the ledger is closed for the audit' }));
  const slowAgent = mockAgent({ name: 'slow', version: '1.0', binding: 'JSONRPC' }).on('sendStreamingMessage', stream([{ status: 'working' }], { idleAfter: 2 })); // works, never finishes
  const servers = await Promise.all([billingAgent.listen(), ledgerAgent.listen(), slowAgent.listen()]);
  const [billing, ledger, slow] = await Promise.all(servers.map((server) => A2AClient.connect(server.url)));
  if (!billing || !ledger || !slow) throw new Error('unreachable');
  try {
    const tools = [a2aTool(billing), a2aTool(ledger)]; // named and described from the agents' cards
    // A scripted model that calls both tools (a real app binds the tools to its chat model the same way).
    const model = new FakeStreamingChatModel({
      chunks: [
        new AIMessageChunk({
          content: '',
          tool_calls: [
            { id: 'call-1', name: 'billing', args: { message: 'Total of invoice INV-7?' } },
            { id: 'call-2', name: 'ledger', args: { message: 'Book INV-7.' } },
          ],
        }),
      ],
    }).bindTools(tools);
    const request = await model.invoke([new HumanMessage('Book invoice INV-7.')]);
    const replies: ToolMessage[] = [];
    for (const call of request.tool_calls ?? []) {
      const tool = tools.find((t) => t.name === call.name);
      if (tool) replies.push(await tool.invoke({ ...call, type: 'tool_call' })); // a ToolMessage for the model's next turn
    }
    const [answer, failure] = replies.map((reply) => JSON.parse(String(reply.content)) as A2AToolResult);
    if (!answer || !failure) throw new Error('unreachable');

    // Abort: the run's signal ends the call (LangChain rejects with the abort) and the agent's task is cancelled.
    let aborted = '';
    try {
      await a2aTool(slow).invoke({ message: 'Audit everything.' }, { signal: AbortSignal.timeout(300) });
    } catch (error) {
      aborted = error instanceof Error ? error.name : String(error);
    }
    await slow.close(); // waits for the cancel it sent
    return { answer, failure, aborted, cancelled: slowAgent.callsOf('cancelTask').length };
  } finally {
    await Promise.all([billing.close(), ledger.close(), slow.close()]);
    await Promise.all(servers.map((server) => server.close()));
  }
}
