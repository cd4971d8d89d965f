/**
 * A coordinator that asks three agents at once and degrades gracefully: it needs two answers, gives
 * the whole fan-out one deadline, and reports what failed as structured errors instead of stalling.
 * Here the three agents are local mocks (one hangs); point the URLs at real agents in production.
 *
 * Run by `npm test` (test/examples); after `npm run build` also `node examples/coordinator-fan-out.ts` (Node 22.18+ or 24).
 */
import { A2AClient, fanOut, isA2AClientError, type FanOutResult } from 'a2a-resilient';
import { hang, mockAgent, replyText } from 'a2a-resilient/mocks';

/** Fans out one question; resolves with the answers and the failures, or the error when too few answered. */
export async function main(): Promise<{ answers: string[]; failed: FanOutResult['failed'] }> {
  const flights = mockAgent({ name: 'flights', version: '1.0', binding: 'JSONRPC' }).on('sendMessage', replyText('LH 123 at 09:40'));
  const hotels = mockAgent({ name: 'hotels', version: '0.3', binding: 'JSONRPC' }).on('sendMessage', replyText('Hotel Adlon, 2 nights'));
  const weather = mockAgent({ name: 'weather', version: '1.0', binding: 'HTTP+JSON' }).on('sendMessage', hang());
  const servers = await Promise.all([flights.listen(), hotels.listen(), weather.listen()]);
  const clients = await Promise.all(servers.map((s) => A2AClient.connect(s.url, { timeouts: { readMs: 5_000 } })));
  try {
    const result = await fanOut(
      clients.map((client) => ({ client, input: 'Plan my trip to Berlin on Friday' })),
      { minResults: 2, totalMs: 1_000 },
    );
    const answers = result.ok.map(({ agent, events }) => `${agent}: ${events.at(-1)?.text ?? ''}`);
    for (const { agent, error } of result.failed) {
      // Branch on the structured error, never on its text.
      console.log(`${agent} failed: ${error.type} ${error.code ?? ''} (retryable: ${String(error.retryable)})`);
    }
    return { answers, failed: result.failed };
  } catch (error) {
    if (isA2AClientError(error) && error.kind === 'insufficient-results') {
      // Every agent asked either answered or is in `failures` (failed, or skipped with its breaker open).
      console.log(`only ${clients.length - (error.failures?.length ?? 0)} of ${clients.length} answered; failures:`, error.failures);
    }
    throw error;
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(servers.map((s) => s.close()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await main(), null, 2));
}
