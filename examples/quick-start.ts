/**
 * The README's quick start, as a program that runs: three local mock agents stand in for real ones
 * (real HTTP on 127.0.0.1, ports picked by the system), then the client connects to one, streams an
 * answer with the error branch, makes a protocol-level call, fans out to all three and closes.
 *
 * Run by `npm test` (test/examples); after `npm run build` also `npx tsx examples/quick-start.ts`.
 */
import { A2AClient, fanOut, isTerminalError } from 'a2a-resilient';
import { failedTask, mockAgent, replyText, stream } from 'a2a-resilient/mocks';

/** What the quick start saw, for its test. */
export interface QuickStartResult {
  streamed: string[];
  answer: string;
  protocolKind: string;
  ok: string[];
  failed: Array<{ agent: string; code: string | undefined }>;
}

/** Runs the quick start against local mock agents; resolves with what it saw. */
export async function main(): Promise<QuickStartResult> {
  // Three agents to talk to. In production these are your agents' URLs.
  const billingAgent = mockAgent({ name: 'billing', version: '1.0', binding: 'JSONRPC' })
    .on('sendStreamingMessage', stream([{ status: 'working' }, { artifact: 'INV-7: €1,200, ' }, { artifact: 'due 1 March', append: true }, { status: 'completed' }]))
    .on('sendMessage', replyText('hi there'));
  const searchAgent = mockAgent({ name: 'search', version: '0.3', binding: 'HTTP+JSON' }).on('sendMessage', replyText('Q3 revenue: €4.1M'));
  const ledgerAgent = mockAgent({ name: 'ledger', version: '1.0', binding: 'JSONRPC' }).on(
    'sendMessage',
    failedTask({ error_type: 'flow_error', error_code: 'LEDGER_LOCKED', error_message: 'the ledger is closed for the audit' }),
  );
  const servers = await Promise.all([billingAgent.listen(), searchAgent.listen(), ledgerAgent.listen()]);
  const [billingUrl = '', searchUrl = '', ledgerUrl = ''] = servers.map((s) => s.url);

  // Discovery: the agent card is fetched and validated; version and binding are picked from it.
  const billing = await A2AClient.connect(billingUrl, { timeouts: { totalMs: 10_000 } });
  const search = await A2AClient.connect(searchUrl);
  const ledger = await A2AClient.connect(ledgerUrl);
  try {
    // Event level: never throws for a remote failure — it arrives as an event with `error`.
    const streamed: string[] = [];
    let answer = '';
    for await (const event of billing.stream('Summarise invoice INV-7')) {
      if (isTerminalError(event)) {
        if (event.error.ambiguous) console.log('the agent may have acted: look at the task before sending again', event.taskId);
        else if (event.error.retryable) console.log(`try again later (in ${event.error.retryAfterMs ?? 1_000} ms)`);
        else console.log(`failed: ${event.error.type} ${event.error.code ?? ''}: ${event.error.message}`);
        break;
      }
      if (event.partial) streamed.push(event.text ?? ''); // new text, as it arrives
      else if (event.done) answer = event.text ?? ''; // the whole answer, once
    }

    // Protocol level: normalised A2A objects; throws one A2AClientError after resilience gives up.
    const reply = await billing.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });

    // Coordinator: many agents, one deadline; each answer is the agent's events (`invoke`'s result).
    const { ok, failed } = await fanOut(
      [billing, search, ledger].map((client) => ({ client, input: 'Q3 revenue?' })),
      { minResults: 2, totalMs: 5_000 },
    );
    for (const { agent, events } of ok) console.log(`${agent}: ${events.at(-1)?.text ?? ''}`);
    for (const { agent, error } of failed) console.log(`${agent} failed: ${error.code ?? error.type}`);

    return {
      streamed,
      answer,
      protocolKind: reply.kind,
      ok: ok.map(({ agent, events }) => `${agent}: ${events.at(-1)?.text ?? ''}`),
      failed: failed.map(({ agent, error }) => ({ agent, code: error.code })),
    };
  } finally {
    // A client keeps its connections open for reuse: close it when done.
    await Promise.all([billing.close(), search.close(), ledger.close()]);
    await Promise.all(servers.map((s) => s.close()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await main());
}
