import { A2AClient } from '../client/a2a-client.js';
import type { ClientOptions } from '../client/options.js';
import { fanOut, type FanOutResult } from '../coordinator/fan-out.js';
import { isA2AClientError } from '../errors/a2a-client-error.js';
import type { ResilienceEvent } from '../resilience/event-types.js';
import type { MockServer } from '../../mocks/index.js';
import { mswPeer } from '../../mocks/msw-peer.js';
import type { ResponseError } from '../errors/a2a-client-error.js';
import { missingPeer } from '../util/require-peer.js';
import { parseCommand } from './args.js';
import { errorFields } from './format.js';
import type { CommandIO } from './io.js';
import { cleanUpAfter } from '../util/clean-up-after.js';

export const DEMO_USAGE = `Usage: a2a-resilient demo

Starts four local mock A2A agents on 127.0.0.1 (no network needed) — one healthy, one flaky that
asks to be retried later, one that fails with a structured business error, one that hangs — and runs
a coordinator fan-out against them twice, narrating what the SDK does: retries that honour the
server's hints, one deadline for everything, the circuit breaker cutting off the dead agent, the
rebuilt ResponseErrors, and the degraded result.

Options:
  -h, --help  show this help`;

const DEADLINE_MS = 2_500;

/**
 * `a2a-resilient demo`: the SDK's story in one run; exit 0 when it went as expected, 1 when it did
 * not or when msw (the mocks' peer dependency) is not installed: then the one line says what to install.
 */
export async function demoCommand(argv: string[], io: CommandIO): Promise<number> {
  const { help } = parseCommand(argv, {}, []);
  if (help) {
    io.out(DEMO_USAGE);
    return 0;
  }
  // The mocks need msw (a peer dependency of `a2a-resilient/mocks`): loaded only for the demo, and
  // only once it can be found, so a project without it gets the install hint of the mocks entry, no stack.
  const missing = missingPeer(import.meta.url, mswPeer('a2a-resilient demo'));
  if (missing) {
    io.err(missing.message);
    return 1;
  }
  const { failFirst, failedTask, hang, httpError, mockAgent, replyText } = await import('../../mocks/index.js');
  const clock = demoClock();
  const narrate = (event: ResilienceEvent) => io.out(`  ${clock.stamp()}  ${describe(event)}`);

  const researcher = mockAgent({ name: 'researcher', version: '1.0', binding: 'JSONRPC', description: 'finds sources' });
  researcher.on('sendMessage', replyText('3 sources found on loopback retries'));
  const translator = mockAgent({ name: 'translator', version: '0.3', binding: 'JSONRPC', description: 'translates text' });
  translator.on(
    'sendMessage',
    failFirst(
      1,
      httpError(503, { retryAfter: 1 }),
      failFirst(
        1,
        httpError(429, { problem: { title: 'Too many requests', detail: 'slow down', is_retriable: true, retry_after_ms: 300 } }),
        replyText('Bonjour, le monde'),
      ),
    ),
  );
  const billing = mockAgent({ name: 'billing', version: '1.0', binding: 'HTTP+JSON', description: 'looks up invoices' });
  billing.on('sendMessage', failedTask({ error_type: 'flow_error', error_code: 40401, error_message: 'invoice INV-7 not found', error_param: 'invoice_id' }));
  const archive = mockAgent({ name: 'archive', version: '0.3', binding: 'HTTP+JSON', description: 'never answers' });
  archive.on('sendMessage', hang());

  const servers: MockServer[] = [];
  const clients: A2AClient[] = [];
  const closeAll = async (): Promise<void> => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(servers.map((s) => s.close()));
  };
  let outcome: number;
  try {
    for (const agent of [researcher, translator, billing, archive]) servers.push(await agent.listen());
    io.out('a2a-resilient demo — a coordinator asks four A2A agents the same question.\n');
    io.out('Local mock agents (real HTTP on 127.0.0.1):');
    for (const [i, agent] of [researcher, translator, billing, archive].entries()) {
      io.out(`  ${agent.name.padEnd(11)} A2A ${agent.version} ${agent.binding.padEnd(9)} ${servers[i]?.url ?? ''}  (${describeAgent(agent.name)})`);
    }

    const common: ClientOptions = { onEvent: narrate, retry: { maxAttempts: 3, baseDelayMs: 100 } };
    const perAgent: Record<string, ClientOptions> = {
      // The hanging agent: a short read timeout, a breaker that opens after 2 health failures, and
      // ambiguous retries opted in. A timed-out send may have reached the agent and servers do not
      // deduplicate by message id, so a repeat can run it twice: opting in is only right for an agent
      // whose work is harmless to repeat, as this read-only archive lookup is.
      archive: {
        ...common,
        retry: { maxAttempts: 3, baseDelayMs: 100, ambiguous: true },
        timeouts: { readMs: 800 },
        circuitBreaker: { consecutiveFailures: 2, halfOpenAfterMs: 30_000 },
      },
    };
    for (const server of servers) {
      const url = server.url;
      const name = [researcher, translator, billing, archive].find((a) => a.url === url)?.name ?? '';
      clients.push(await A2AClient.connect(url, perAgent[name] ?? common));
    }
    for (const c of clients) io.out(`  connected to ${c.name}: card validated, speaking ${c.protocol.version} over ${c.protocol.binding}`);

    io.out(`\nRound 1: fan-out to all four, one deadline of ${DEADLINE_MS} ms, at least 2 answers needed.`);
    const round1 = await timed(io, clock, () =>
      fanOut(clients.map((client) => ({ client, input: 'Summarise invoice INV-7' })), { minResults: 2, totalMs: DEADLINE_MS }),
    );
    report(io, round1, clock);

    io.out(`\nRound 2: the same fan-out again. The archive's circuit breaker is open now, so it is skipped at once.`);
    const round2 = await timed(io, clock, () =>
      fanOut(clients.map((client) => ({ client, input: 'Summarise invoice INV-7 again' })), { minResults: 2, totalMs: DEADLINE_MS }),
    );
    report(io, round2, clock);

    const ok = round1.result.ok.length >= 2 && round2.result.skipped.some((s) => s.agent === 'archive');
    io.out(
      `\nWhat happened: the flaky translator was retried when and as the server asked, the business failure from` +
        `\nbilling arrived as a structured error you can branch on (error.code === "40401"), the hanging archive cost` +
        `\nat most the deadline once and nothing the second time, and the coordinator got a degraded but useful answer.`,
    );
    outcome = ok ? 0 : 1;
  } catch (error) {
    if (isA2AClientError(error)) io.err(`demo failed: ${error.kind}: ${error.message}`);
    // The demo's failure is the one reported, even when closing the clients or servers fails too.
    await cleanUpAfter(error, closeAll);
    throw error;
  }
  await closeAll();
  return outcome;
}

/** The demo's one clock: every line it prints is stamped in ms since the demo started. */
interface DemoClock {
  /** Milliseconds since the demo started. */
  now(): number;
  /** A time on this clock (default: now) formatted for the left margin, e.g. `+  866ms`. */
  stamp(at?: number): string;
}

function demoClock(): DemoClock {
  const started = performance.now();
  const now = () => Math.round(performance.now() - started);
  return { now, stamp: (at = now()) => `+${String(at).padStart(5)}ms` };
}

interface TimedRound {
  result: FanOutResult;
  /** When the round started and ended, on the demo's clock. */
  startedAt: number;
  endedAt: number;
}

async function timed(io: CommandIO, clock: DemoClock, run: () => Promise<FanOutResult>): Promise<TimedRound> {
  const startedAt = clock.now();
  const ticker = setInterval(() => io.out(`  ${clock.stamp()}  … still waiting (${clock.now() - startedAt} ms into this round)`), 1_000);
  try {
    const result = await run();
    return { result, startedAt, endedAt: clock.now() };
  } finally {
    clearInterval(ticker);
  }
}

function report(io: CommandIO, { result, startedAt, endedAt }: TimedRound, clock: DemoClock): void {
  io.out(
    `  ${clock.stamp(endedAt)}  round done, ${endedAt - startedAt} ms after it started at +${startedAt}ms: ` +
      `${result.ok.length} answered, ${result.failed.length} failed, ${result.skipped.length} skipped`,
  );
  for (const { agent, events } of result.ok) {
    const answer = events.filter((e) => e.done).map((e) => e.text ?? '').join(' ').trim();
    io.out(`    ok      ${agent.padEnd(11)} "${answer}"`);
  }
  for (const { agent, error } of result.failed) io.out(`    failed  ${agent.padEnd(11)} ${describeFailure(error)}`);
  for (const { agent, error } of result.skipped) io.out(`    skipped ${agent.padEnd(11)} ${error.message}\n              ${errorFields(error)}`);
}

/**
 * A failed agent's message and fields. When this call's own failures opened the agent's breaker, so
 * that its last attempt failed fast with `circuit_open`, those failures are what is shown: the
 * breaker is their consequence, not the reason the agent failed.
 */
function describeFailure(error: ResponseError): string {
  const cause = error.cause;
  const opening = cause?.kind === 'circuit-open' ? cause.attempts.filter((a) => a.kind !== 'circuit-open') : [];
  const last = opening.at(-1);
  if (cause === undefined || last === undefined) return `${error.message}\n              ${errorFields(error)}`;
  const kinds = [...new Set(opening.map((a) => a.kind))].join(', ');
  const numbers = opening.map((a) => cause.attempts.indexOf(a) + 1);
  const which = numbers.length === 1 ? `attempt ${numbers[0]}` : `attempts ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
  return (
    `${last.message}\n              kind=${kinds} on ${which}, which opened its circuit breaker; ` +
    `attempt ${cause.attempts.length} was not sent (type=${error.type})`
  );
}

function describeAgent(name: string): string {
  switch (name) {
    case 'researcher':
      return 'healthy';
    case 'translator':
      return 'flaky: 503 + Retry-After, then 429 problem+json';
    case 'billing':
      return 'fails with a structured task error';
    default:
      return 'hangs forever';
  }
}

function describe(event: ResilienceEvent): string {
  switch (event.type) {
    case 'retry':
      return `${event.agent}: attempt ${event.attempt} failed — ${explain(event.reason)}; retrying in ${Math.round(event.delayMs)} ms`;
    case 'give-up':
      return `${event.agent}: giving up after ${event.attempts} attempt(s) — ${explain(event.reason)}`;
    case 'breaker-open':
      return `${event.agent}: circuit breaker OPEN — calls fail fast for ${Math.round(event.retryAfterMs / 1000)} s`;
    case 'breaker-half-open':
      return `${event.agent}: circuit breaker half-open — letting one probe through`;
    case 'breaker-close':
      return `${event.agent}: circuit breaker closed — agent healthy again`;
    case 'budget-exhausted':
      return `${event.agent}: retry budget spent — not retrying`;
    case 'resubscribe':
      return `${event.agent}: stream dropped; resubscribing to task ${event.taskId} in ${Math.round(event.delayMs)} ms`;
    case 'shared-state':
      return `${event.agent}: shared state ${event.status} (${event.reason})`;
    case 'cancel':
      return `${event.agent}: abandoned task ${event.taskId} (${event.reason}); cancel ${event.outcome}${event.errorKind ? ` (${event.errorKind})` : ''}`;
    case 'send-lookup':
      return `${event.agent}: a send failed after it left — ${event.outcome === 'found' ? `the agent has it (task ${event.taskId ?? '?'}); following it` : event.outcome === 'absent' ? 'the agent never got it; sending it again' : 'the agent cannot tell'}`;
  }
}

/** The classifier's rule names, in words for someone new to A2A. */
function explain(reason: string): string {
  if (reason.startsWith('hint:delay(header')) return 'the agent answered "busy" and said when to come back (Retry-After)';
  if (reason.startsWith('hint:delay(problem')) return 'the agent answered "too many requests" with retry_after_ms in its problem+json body';
  if (reason.startsWith('hint:delay')) return 'the agent said when to retry';
  if (reason.includes('read-timeout')) {
    return 'no answer within the read timeout; the send may have reached the agent, resent only because this client opted in (retry.ambiguous) for a read-only agent';
  }
  if (reason === 'kind:circuit-open') return 'its circuit breaker is open';
  if (reason === 'kind:deadline-exceeded') return 'the deadline ran out';
  return reason;
}
