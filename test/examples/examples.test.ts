// Every example in examples/ is run here, through the package's public entry points, so none can rot.
import { describe, expect, it, vi } from 'vitest';
import { main as adkRemoteAgent } from '../../examples/adk-remote-agent.js';
import { main as aiSdkTool } from '../../examples/ai-sdk-tool.js';
import { main as authentication } from '../../examples/authentication.js';
import { main as conversation } from '../../examples/conversation.js';
import { main as coordinatorFanOut } from '../../examples/coordinator-fan-out.js';
import { main as customConverter } from '../../examples/custom-converter.js';
import { main as grpcAgent } from '../../examples/grpc-agent.js';
import { startOfficialGrpcServer } from '../helpers/official-grpc-server.js';
import { main as langchainTool } from '../../examples/langchain-tool.js';
import { main as longRunningTask } from '../../examples/long-running-task.js';
import { main as officialClient } from '../../examples/official-client.js';
import { main as protocolLevel } from '../../examples/protocol-level.js';
import { main as pushNotifications } from '../../examples/push-notifications.js';
import { main as signedCards } from '../../examples/signed-cards.js';
import { main as tracing } from '../../examples/tracing.js';

describe('examples', () => {
  it('quick-start (the README quick start, a script): streamed chunks, the whole answer once, a protocol reply, a fan-out with one structured failure', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await import('../../examples/quick-start.js'); // runs the script, as `node examples/quick-start.ts` does
    const lines = log.mock.calls.map((args) => args.join(' '));
    log.mockRestore();
    expect(lines.filter((line) => line.startsWith('chunk: '))).toEqual(['chunk: INV-7: €1,200, ', 'chunk: due 1 March']);
    expect(lines.filter((line) => line.startsWith('answer: '))).toEqual(['answer: INV-7: €1,200, due 1 March']);
    expect(lines).toContain('reply: message');
    expect(lines.filter((line) => /^(billing|search|ledger)[: ]/.test(line)).sort()).toEqual(['billing: hi there', 'ledger failed: LEDGER_LOCKED', 'search: Q3 revenue: €4.1M']);
  });

  it('grpc-agent: streams over GRPC and reads a gRPC status as a typed error', async () => {
    const server = await startOfficialGrpcServer();
    try {
      const result = await grpcAgent(server.baseUrl);
      expect(result.binding).toBe('GRPC');
      expect(result.streamed).toContain('chunk 2');
      expect(result.notFound).toEqual({ kind: 'http', grpcStatus: 'NOT_FOUND', a2aName: 'TaskNotFound' });
    } finally {
      await server.close();
    }
  });

  it('coordinator-fan-out: two answers within the deadline, the hanging agent reported as a timeout', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const started = performance.now();
    const { answers, failed } = await coordinatorFanOut();
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(answers.sort()).toEqual(['flights: LH 123 at 09:40', 'hotels: Hotel Adlon, 2 nights']);
    expect(failed.map((f) => [f.agent, f.error.type, f.error.code])).toEqual([['weather', 'timeout_error', 'deadline-exceeded']]);
  });

  it('custom-converter: the provider converter is chosen by card and yields the standard ResponseError', () => {
    const result = customConverter();
    expect(result).toMatchObject({ converter: 'acme', terminal: true, code: '40901' });
    expect(result.events.at(-1)?.error).toMatchObject({ type: 'flow_error', message: 'inventory unavailable', code: '40901' });
  });

  it('protocol-level: task read back, per-call deadline, caller abort', async () => {
    const { task, deadline, aborted } = await protocolLevel();
    expect(task.status.state).toBe('completed');
    expect(task.artifacts?.[0]?.parts[0]).toMatchObject({ kind: 'text', text: 'Q3 revenue: 4.2M' });
    expect(deadline).toBe('deadline-exceeded');
    expect(aborted).toBe('aborted');
  });

  it('authentication: the card’s scheme, one token refresh on the challenge, auth-required is not terminal, the task continues', async () => {
    const { scheme, refreshes, interrupted, answer } = await authentication();
    expect(scheme).toEqual({ type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' });
    expect(refreshes).toBe(1);
    expect(interrupted).toEqual({ state: 'auth-required', text: 'Please allow access to your bank account: https://bank.example/consent/42', terminal: false });
    expect(answer).toBe('Your March payslip is on its way.');
  });

  it('conversation: two questions on one task, continued from saved JSON by another client, then a new task referencing it', async () => {
    const { turns, sameTask, saved, references } = await conversation();
    expect(turns).toEqual([
      { text: 'Where to?', state: 'input-required', openTask: true },
      { text: 'Which day?', state: 'input-required', openTask: true },
      { text: 'Flight LH 123 to Paris on Friday, booked.', state: 'completed', openTask: false },
      { text: 'Hotel Lutetia, Friday to Sunday.', state: 'completed', openTask: false },
    ]);
    expect(sameTask).toBe(true);
    expect(saved).toMatchObject({ version: 1, state: 'input-required' });
    expect(references).toEqual([saved.lastTaskId]);
  });

  it('long-running-task: a second process resumes the task the first left (each chunk once), waits for it, lists it', async () => {
    const result = await longRunningTask();
    expect(result.firstProcessSaw).toBe('Q3 revenue: 4.2M. ');
    // The snapshot first (what the agent had written by then, the first process's chunk included), then the rest, each once.
    expect(result.resumedChunks[0]?.startsWith('Q3 revenue: 4.2M. ')).toBe(true);
    expect(result.resumedChunks.at(-1)).toBe('Outlook: stable.');
    expect(result.resumedChunks.join('')).toBe('Q3 revenue: 4.2M. Costs fell 3%. Outlook: stable.');
    expect(result.answer).toBe('Q3 revenue: 4.2M. Costs fell 3%. Outlook: stable.');
    expect(result.waited).toBe('completed');
    expect(result.listed).toBe(1);
  });

  it('signed-cards: the genuine card verifies; a tampered one fails connect() with kind card', async () => {
    const { verified, tampered } = await signedCards();
    expect(verified).toBe('balance: 42');
    expect(tampered.kind).toBe('card');
    expect(tampered.field).toBe('signatures.0');
    expect(tampered.message).toContain('the signature does not match the card');
  });

  it('tracing: one invoke_agent span under the app’s span, the retry as its event, traceparent on both attempts', async () => {
    const { spans, traceparents, traceId } = await tracing();
    expect(spans.map((s) => [s.name, s.parent, s.events])).toEqual([
      ['invoke_agent forecaster', 'plan trip', ['a2a.retry']],
      ['plan trip', undefined, []],
    ]);
    expect(spans[0]?.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'forecaster', 'server.address': '127.0.0.1' });
    expect(traceparents).toHaveLength(2);
    for (const t of traceparents) expect(t).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  });

  it('push-notifications: a forged delivery refused, each chunk once (the retry dropped), the answer, the config deleted', async () => {
    const { chunks, answer, forged, deletes } = await pushNotifications();
    expect(forged).toBe(401);
    expect(chunks).toEqual(['Findings: ', 'three sources agree.']);
    expect(answer).toBe('Findings: three sources agree.');
    expect(deletes).toBe(1);
  });

  it('ai-sdk-tool: the billing answer streams as preliminary results, the ledger failure is a result, the model answers after both', async () => {
    const { preliminary, results, text } = await aiSdkTool();
    expect(preliminary).toEqual(['INV-7: €1,200, ', 'INV-7: €1,200, due 1 March']);
    expect(results.billing).toMatchObject({ ok: true, text: 'INV-7: €1,200, due 1 March', state: 'completed' });
    expect(results.ledger).toMatchObject({ ok: false, error: { type: 'flow_error', code: 'LEDGER_LOCKED', retryable: false } });
    expect(text).toContain('retry later');
  });

  it('langchain-tool: the answer and the failure as ToolMessage content, the aborted call rejected and its task cancelled', async () => {
    const { answer, failure, aborted, cancelled } = await langchainTool();
    expect(answer).toMatchObject({ ok: true, text: 'INV-7: €1,200, due 1 March' });
    expect(failure).toMatchObject({ ok: false, error: { type: 'flow_error', code: 'LEDGER_LOCKED', message: 'the ledger is closed for the audit', retryable: false } });
    expect(aborted).toBe('TimeoutError'); // AbortSignal.timeout's reason, as LangChain rejects with it
    expect(cancelled).toBe(1);
  });

  it('adk-remote-agent: ADK’s RemoteA2AAgent with our factory gets the whole answer once through a 503 and a dropped stream', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const { chunks, answer, sends } = await adkRemoteAgent();
    expect(chunks).toEqual(['INV-7: €1,200, ', 'due 1 March']);
    expect(answer).toBe('INV-7: €1,200, due 1 March');
    expect(sends).toBe(2); // the refused send and the one that streamed; the drop was resumed, not re-sent
  });

  it('official-client: the official 1.x Client over resilientTransports — a 503 repeated, a dropped stream resumed as the appends it was, the official TaskNotFoundError with our error as cause', async () => {
    const { reply, chunks, notFound } = await officialClient();
    expect(reply).toBe('INV-7 is paid');
    expect(chunks).toEqual(['INV-7: €1,200, ', 'due 1 March']);
    expect(notFound).toBe('TaskNotFoundError (json-rpc, TaskNotFound)');
  });
});
