/**
 * The gRPC binding keeps the HTTP guarantees, on real loopback gRPC servers: one deadline the agent
 * sees cancelled, signal and break cancel the call, idle streams time out, a broken stream resumes
 * with every chunk exactly once, reads are retried on UNAVAILABLE, sends only when refused unprocessed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient } from 'a2a-resilient';
import { startOfficialGrpcServer, type OfficialGrpcServer } from '../../helpers/official-grpc-server.js';
import { completedTask, grpcCard, startGrpcFaultServer, type GrpcFaultServer } from '../../helpers/grpc-fault-server.js';
import { rejection } from '../../helpers/rejection.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

async function official(opts: Parameters<typeof startOfficialGrpcServer>[0] = {}): Promise<OfficialGrpcServer> {
  const s = await startOfficialGrpcServer(opts);
  closers.push(() => s.close());
  return s;
}
async function fault(script: Parameters<typeof startGrpcFaultServer>[0]): Promise<GrpcFaultServer> {
  const s = await startGrpcFaultServer(script);
  closers.push(() => s.close());
  return s;
}
function client(card: Record<string, unknown>, options: ConstructorParameters<typeof A2AClient>[1] = {}): A2AClient {
  const c = new A2AClient(card, options);
  closers.push(() => c.close());
  return c;
}
async function connect(url: string, options: Parameters<typeof A2AClient.connect>[1] = {}): Promise<A2AClient> {
  const c = await A2AClient.connect(url, options);
  closers.push(() => c.close());
  return c;
}
async function until(check: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}
const text = (t: string) => ({ message: { role: 'user' as const, parts: [{ kind: 'text' as const, text: t }] } });

describe('gRPC deadlines and cancellation (official server)', () => {
  it('one deadline: the call fails with deadline-exceeded and the agent sees it cancelled', async () => {
    const s = await official();
    const c = await connect(s.baseUrl, { retry: false });
    const started = performance.now();
    const error = await rejection(c.sendMessage(text('slow'), { timeouts: { totalMs: 300 } }));
    const took = performance.now() - started;
    expect(error.kind).toBe('deadline-exceeded');
    expect(took).toBeGreaterThan(250);
    expect(took).toBeLessThan(2_000);
    await until(() => s.cancelled.includes('/lf.a2a.v1.A2AService/SendMessage'));
    expect(s.cancelled).toContain('/lf.a2a.v1.A2AService/SendMessage');
  });

  it('the caller signal aborts the call and the agent sees the cancellation', async () => {
    const s = await official();
    const c = await connect(s.baseUrl);
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('user left')), 150);
    const error = await rejection(c.sendMessage(text('slow'), { signal: ac.signal }));
    expect(error.kind).toBe('aborted');
    await until(() => s.cancelled.length > 0);
    expect(s.cancelled).toContain('/lf.a2a.v1.A2AService/SendMessage');
  });

  it('a break out of a stream cancels it at the agent', async () => {
    const s = await official({ chunkDelayMs: 50 });
    const c = await connect(s.baseUrl);
    for await (const ev of c.sendStreamingMessage(text('stream 50'))) {
      if (ev.kind === 'artifact-update') break;
    }
    await until(() => s.cancelled.includes('/lf.a2a.v1.A2AService/SendStreamingMessage'));
    expect(s.cancelled).toContain('/lf.a2a.v1.A2AService/SendStreamingMessage');
  });

  it('a stream quiet for longer than streamIdleMs times out (idle-timeout), is resubscribed, and ends with idle-timeout when the attempts are spent', async () => {
    const s = await official();
    const resubscribes: Array<{ reason?: unknown; at: number }> = [];
    const started = performance.now();
    const c = await connect(s.baseUrl, {
      timeouts: { streamIdleMs: 300 },
      onEvent: (e) => {
        if (e.type === 'resubscribe') resubscribes.push({ reason: e.reason, at: performance.now() - started });
      },
    });
    const error = await rejection((async () => {
      for await (const ev of c.sendStreamingMessage(text('slow-chunk hello'), { timeouts: { totalMs: 10_000 } })) void ev;
    })());
    // Rounds without news are attempts (default maxAttempts 3): the send's stream and two resubscribes
    // go quiet, then the last idle-timeout ends the call, long before the deadline.
    expect(error.kind).toBe('idle-timeout');
    expect(resubscribes).toHaveLength(2);
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(resubscribes[0]?.reason).toBe('idle-timeout');
    expect(resubscribes[0]?.at).toBeGreaterThan(250);
    expect(resubscribes[0]?.at).toBeLessThan(1_200);
    expect(s.calls.some((x) => x.path.endsWith('/SubscribeToTask'))).toBe(true);
  });
});

describe('gRPC stream resume (official server behind a relay)', () => {
  it('a stream the network breaks mid-way resumes through SubscribeToTask with every chunk exactly once', async () => {
    const s = await official({ chunkDelayMs: 40, proxy: true });
    const c = await connect(s.baseUrl, { retry: { maxAttempts: 5, baseDelayMs: 20 } });
    let chunks = 0;
    let texts = '';
    let cut = false;
    let last: string | undefined;
    for await (const ev of c.sendStreamingMessage(text('stream 12'))) {
      if (ev.kind === 'artifact-update') {
        chunks++;
        for (const p of ev.artifact.parts) if (p.kind === 'text') texts += p.text;
        if (chunks === 4 && !cut) {
          cut = true;
          await s.proxy?.goDark();
          await s.proxy?.comeBack();
        }
      }
      if (ev.kind === 'status-update') last = ev.status.state;
    }
    expect(cut).toBe(true);
    expect(last).toBe('completed');
    expect(texts).toBe(Array.from({ length: 12 }, (_, i) => `chunk ${i} `).join(''));
    expect(s.calls.map((x) => x.path)).toContain('/lf.a2a.v1.A2AService/SubscribeToTask');
    expect(s.calls.filter((x) => x.path.endsWith('/SendStreamingMessage'))).toHaveLength(1);
  });
});

describe('gRPC retries (scripted server)', () => {
  it('a read is retried after UNAVAILABLE', async () => {
    const s = await fault((method, n) => (n === 1 ? { status: 14, message: 'warming up' } : { reply: completedTask('t-1') }));
    const c = client(grpcCard('retry-read', s.target), { retry: { maxAttempts: 3, baseDelayMs: 10 } });
    const task = await c.getTask({ id: 't-1' });
    expect(task.status.state).toBe('completed');
    expect(s.calls.get('GetTask')).toBe(2);
  });

  it('a send is not repeated after UNAVAILABLE from the agent (it may have acted)', async () => {
    const s = await fault(() => ({ status: 14, message: 'unavailable' }));
    const c = client(grpcCard('no-repeat', s.target), { retry: { maxAttempts: 3, baseDelayMs: 10 } });
    const error = await rejection(c.sendMessage(text('hi')));
    expect(error).toMatchObject({ kind: 'http', grpcStatus: 'UNAVAILABLE', status: 503 });
    expect(s.calls.get('SendMessage')).toBe(1);
  });

  it('a send is not repeated after the connection broke once it was sent', async () => {
    const s = await official({ proxy: true });
    // Without the lookup (test/client/lost-send.test.ts finds the task this send started).
    const c = await connect(s.baseUrl, { retry: { maxAttempts: 3, baseDelayMs: 10, lookUpSends: false } });
    setTimeout(() => void s.proxy?.goDark().then(() => s.proxy?.comeBack()), 200);
    const error = await rejection(c.sendMessage(text('slow')));
    expect(error).toMatchObject({ kind: 'connection', phase: 'after-send' });
    expect(s.calls.filter((x) => x.path.endsWith('/SendMessage'))).toHaveLength(1);
  });

  it('a send refused with RESOURCE_EXHAUSTED is repeated after the pushback delay', async () => {
    const s = await fault((method, n) => (n === 1 ? { status: 8, message: 'quota', trailers: { 'grpc-retry-pushback-ms': '150' } } : { reply: { task: completedTask('t-2') } }));
    const c = client(grpcCard('refused', s.target), { retry: { maxAttempts: 3, baseDelayMs: 1 } });
    const started = performance.now();
    const answer = await c.sendMessage(text('hi'));
    expect(answer.kind).toBe('task');
    expect(performance.now() - started).toBeGreaterThan(120);
    expect(s.calls.get('SendMessage')).toBe(2);
  });

  it('a negative pushback means do not retry', async () => {
    const s = await fault(() => ({ status: 14, trailers: { 'grpc-retry-pushback-ms': '-1' } }));
    const c = client(grpcCard('no-retry', s.target), { retry: { maxAttempts: 3, baseDelayMs: 1 } });
    await rejection(c.getTask({ id: 'x' }));
    expect(s.calls.get('GetTask')).toBe(1);
  });

  it('a refused connection fails before send and is retried, sends included', async () => {
    const s = await fault(() => ({ reply: completedTask('gone') }));
    const target = s.target;
    await s.close();
    const c = client(grpcCard('refused-conn', target), { retry: { maxAttempts: 2, baseDelayMs: 10 }, timeouts: { totalMs: 5_000 } });
    const error = await rejection(c.sendMessage(text('hi')));
    expect(error).toMatchObject({ kind: 'connection', phase: 'before-send', reason: 'refused' });
    expect(error.attempts.length).toBeGreaterThanOrEqual(2);
  });

  it('header values never appear in errors', async () => {
    const s = await fault(() => ({ status: 7, message: 'bad key sk-secret-42' }));
    const c = client(grpcCard('redact', s.target), { headers: { 'x-api-key': 'sk-secret-42' }, retry: false });
    const error = await rejection(c.getTask({ id: 'x' }));
    expect(error.grpcStatus).toBe('PERMISSION_DENIED');
    expect(JSON.stringify(error.toJSON())).not.toContain('sk-secret-42');
  });
});
