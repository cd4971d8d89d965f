/**
 * The README's quick start, word for word (test/docs checks that the README shows this file): three
 * local mock agents stand in for real ones (real HTTP on 127.0.0.1, ports picked by the system), then
 * the client connects to each, streams an answer with the error branch, makes a protocol-level call,
 * fans out to all three and closes.
 *
 * Run by `npm test` (test/examples). By hand, after `npm run build`: `npm run example examples/quick-start.ts`
 * (every supported Node; on 22.18+ also `node examples/quick-start.ts`).
 */
import { A2AClient, fanOut, isTerminalError } from 'a2a-resilient';
import { failedTask, mockAgent, replyText, stream } from 'a2a-resilient/mocks';

// Three agents to talk to: local mocks on 127.0.0.1 (real HTTP). In production these are your agents' URLs.
const billingAgent = mockAgent({ name: 'billing', version: '1.0', binding: 'JSONRPC' })
  .on('sendStreamingMessage', stream([{ status: 'working' }, { artifact: 'INV-7: €1,200, ' }, { artifact: 'due 1 March', append: true }, { status: 'completed' }]))
  .on('sendMessage', replyText('hi there'));
const searchAgent = mockAgent({ name: 'search', version: '0.3', binding: 'HTTP+JSON' }).on('sendMessage', replyText('Q3 revenue: €4.1M'));
const ledgerAgent = mockAgent({ name: 'ledger', version: '1.0', binding: 'JSONRPC' })
  .on('sendMessage', failedTask({ error_type: 'flow_error', error_code: 'LEDGER_LOCKED', error_message: 'the ledger is closed for the audit' }));
const servers = await Promise.all([billingAgent.listen(), searchAgent.listen(), ledgerAgent.listen()]);
const [billingUrl = '', searchUrl = '', ledgerUrl = ''] = servers.map((server) => server.url);

// Discovery: GET /.well-known/agent-card.json, validated; protocol version and binding are picked from the card.
const billing = await A2AClient.connect(billingUrl, { timeouts: { totalMs: 10_000 } });
const search = await A2AClient.connect(searchUrl);
const ledger = await A2AClient.connect(ledgerUrl);

// Event level: stream() and invoke() never throw for a remote failure: it arrives as an event with `error`.
for await (const event of billing.stream('Summarise invoice INV-7')) {
  if (isTerminalError(event)) {
    if (event.error.ambiguous) console.log('the agent may have acted: look at the task before sending again', event.taskId);
    else if (event.error.retryable) console.log(`try again later (in ${event.error.retryAfterMs ?? 1_000} ms)`);
    else console.log(`failed: ${event.error.type} ${event.error.code ?? ''}: ${event.error.message}`);
    break;
  }
  if (event.partial) console.log(`chunk: ${event.text ?? ''}`); // new text, as it arrives…
  else if (event.done) console.log(`answer: ${event.text ?? ''}`); // …and the whole answer, once
}

// Protocol level: normalised A2A objects (here a Message); throws one A2AClientError after resilience gives up.
const reply = await billing.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });
console.log(`reply: ${reply.kind}`); // reply: message

// Coordinator: many agents, one deadline; `ok` holds each agent's events (what `invoke` resolves with).
const { ok, failed } = await fanOut(
  [billing, search, ledger].map((client) => ({ client, input: 'Q3 revenue?' })),
  { minResults: 2, totalMs: 5_000 },
);
for (const { agent, events } of ok) console.log(`${agent}: ${events.at(-1)?.text ?? ''}`); // billing: hi there, search: Q3 revenue: €4.1M
for (const { agent, error } of failed) console.log(`${agent} failed: ${error.code ?? error.type}`); // ledger failed: LEDGER_LOCKED

// A client keeps its connections open for reuse: close it when you are done.
await Promise.all([billing.close(), search.close(), ledger.close()]);
await Promise.all(servers.map((server) => server.close()));
