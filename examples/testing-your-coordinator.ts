/**
 * Testing a coordinator against misbehaving agents with `a2a-resilient/mocks`: one flaky agent that
 * answers 503 twice before succeeding (the client retries with the same messageId), and one agent whose
 * task fails with a structured error (it arrives as `error.code`, not as text to parse).
 *
 * Run: `npm run example examples/testing-your-coordinator.ts` after `npm run build` (every supported Node), or import `main()` in a test.
 */
import { A2AClient, fanOut } from 'a2a-resilient';
import { failFirst, failedTask, httpError, mockAgent, replyText } from 'a2a-resilient/mocks';

/** Runs the scenario; returns what a coordinator test would assert on. */
export async function main(): Promise<{ ok: string[]; failed: Array<{ agent: string; code?: string }>; flakyAttempts: number; sameMessageId: boolean }> {
  const flaky = mockAgent({ name: 'flaky', version: '1.0', binding: 'JSONRPC' });
  flaky.on(['sendMessage', 'sendStreamingMessage'], failFirst(2, httpError(503, { retryAfter: 0 }), replyText('42')));
  const broken = mockAgent({ name: 'broken', version: '0.3', binding: 'HTTP+JSON' });
  broken.reply(failedTask({ error_type: 'flow_error', error_code: 'REMOTE_VALIDATION_FAILED', error_message: 'bad input' }));

  const servers = await Promise.all([flaky.listen(), broken.listen()]);
  try {
    const clients = await Promise.all(servers.map((s) => A2AClient.connect(s.url, { retry: { baseDelayMs: 10 } })));
    const result = await fanOut(clients.map((client) => ({ client, input: 'what is the answer?' })), { minResults: 1, totalMs: 5_000 });
    const ids = flaky.calls.map((c) => JSON.stringify(c.params).match(/"messageId":"([^"]+)"/)?.[1]);
    return {
      ok: result.ok.map((r) => r.agent),
      failed: result.failed.map((f) => ({ agent: f.agent, ...(f.error.code === undefined ? {} : { code: f.error.code }) })),
      flakyAttempts: ids.length,
      sameMessageId: ids.length > 0 && ids.every((id) => id !== undefined && id === ids[0]),
    };
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  main().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
