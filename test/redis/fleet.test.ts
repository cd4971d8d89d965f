/**
 * The fleet test: 8 coordinator replicas — child processes, each with its own client and store,
 * running the BUILT package (test/redis/fleet-replica.mjs) — against one loopback agent and one real
 * redis-server. With the store the agent sees at most `consecutiveFailures` + 8 health failures
 * (one request in flight per replica) before every replica fails fast (without it, each replica
 * pays its own: 8×), the fleet's retries stay within one budget, and Redis killed and restarted mid-run fails no call.
 *
 * Needs a fresh `npm run build` (the pack test needs one too).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { sleep, waitFor } from './setup.js';

const REPLICAS = 8;
const root = fileURLToPath(new URL('../../', import.meta.url));
const breaker = { consecutiveFailures: 5, halfOpenAfterMs: 60_000 };
const budget = { ratio: 0.1, minPerSecond: 2, windowMs: 10_000 };
const floor = budget.minPerSecond * (budget.windowMs / 1000);

interface Report {
  calls: number;
  ok: number;
  requests: number;
  refused: number;
  retries: number;
  openedAt?: number;
  errors: Array<{ at: number; kind: string; attempts: number; message: string }>;
}

/** A loopback A2A agent (v1.0 JSON-RPC) that answers GetTask, or 503 to everything but its card. */
class Agent {
  mode: 'ok' | 'fail' = 'fail';
  failures = 0;
  #server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      req.resume();
      const port = (server.address() as AddressInfo).port;
      if (req.method === 'GET' && req.url === '/.well-known/agent-card.json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card(port)));
        return;
      }
      if (this.mode === 'fail') {
        this.failures++;
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"unavailable"}');
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result: TASK }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.#server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const TASK = { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:00.000Z' } };
const card = (port: number) => ({
  name: 'fleet-agent',
  description: 'The one agent every replica calls.',
  version: '1.0.0',
  supportedInterfaces: [{ url: `http://127.0.0.1:${port}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
});

/** A replica child process and its request/answer channel. */
class Replica {
  readonly #child: ChildProcess;
  readonly #waiting = new Map<string, (message: Record<string, unknown>) => void>();
  readonly sharedState: string[] = [];
  openedAt: number | undefined;

  constructor() {
    this.#child = fork(fileURLToPath(new URL('./fleet-replica.mjs', import.meta.url)), [], { cwd: root, execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.#child.on('message', (message: Record<string, unknown>) => {
      if (message.type === 'opened') this.openedAt = Number(message.at);
      else if (message.type === 'shared-state') this.sharedState.push(String(message.status));
      else this.#waiting.get(String(message.type))?.(message);
    });
  }

  ask<T = Record<string, unknown>>(message: Record<string, unknown>, type = String(message.type)): Promise<T> {
    return new Promise((resolve, reject) => {
      this.#waiting.set(type, (answer) => {
        this.#waiting.delete(type);
        if (typeof answer.error === 'string') reject(new Error(`replica: ${answer.error}`));
        else resolve(answer as T);
      });
      if (message.type !== undefined) this.#child.send(message);
    });
  }

  kill(): void {
    this.#child.kill();
  }
}

/** Everything one scenario measured. */
interface Outcome {
  reports: Report[];
  /** 503s the agent sent. */
  agentFailures: number;
  /** ms from go until the last replica's breaker opened (undefined: not all opened). */
  allOpenAfterMs: number | undefined;
  /** ms from the first replica's opening to the last one's (undefined: not all opened). */
  spreadMs: number | undefined;
  goAt: number;
}

function assertFreshBuild(): void {
  for (const [dist, src] of [
    // dist/ is bundled (scripts/bundle.mjs): these sources are built into the entry points.
    ['dist/src/redis/index.js', 'src/redis/redis-state-store.ts'],
    ['dist/src/redis/index.js', 'src/redis/fleet-breaker.ts'],
    ['dist/src/redis/index.js', 'src/redis/fleet-budget.ts'],
    ['dist/src/index.js', 'src/resilience/breaker.ts'],
    ['dist/src/index.js', 'src/resilience/budget.ts'],
  ] as const) {
    const built = statSync(root + dist, { throwIfNoEntry: false });
    if (!built) throw new Error(`${dist} is missing: run \`npm run build\` before this test`);
    if (built.mtimeMs < statSync(root + src).mtimeMs) throw new Error(`${dist} is older than ${src}: run \`npm run build\``);
  }
}

describeWithRedis('fleet: 8 coordinator processes, one failing agent, one Redis', () => {
  let redis: RedisServer;
  let replicas: Replica[] = [];
  const agents: Agent[] = [];
  let seq = 0;

  beforeAll(async () => {
    assertFreshBuild();
    redis = await startRedisServer();
    replicas = Array.from({ length: REPLICAS }, () => new Replica());
    await Promise.all(replicas.map((r) => r.ask({}, 'alive')));
  }, 30_000);
  afterAll(async () => {
    for (const r of replicas) r.kill();
    await Promise.all(agents.map((a) => a.stop()));
    await redis?.stop();
  });

  /** Runs one scenario on a fresh agent (a fresh origin, so no state carries over). */
  async function scenario(opts: {
    withStore: boolean;
    mode: 'ok' | 'fail';
    options: Record<string, unknown>;
    until: (goAt: number, agent: Agent) => Promise<void>;
  }): Promise<Outcome> {
    const agent = new Agent();
    agent.mode = opts.mode;
    await agent.start();
    agents.push(agent);
    const prefix = `fleet${++seq}:`;
    for (const r of replicas) {
      r.openedAt = undefined;
      r.sharedState.length = 0;
    }
    await Promise.all(
      replicas.map((r) => r.ask({ type: 'setup', agentUrl: agent.url, redisUrl: opts.withStore ? redis.url : undefined, prefix, options: opts.options, pauseMs: 10 })),
    );
    // Two sync rounds: every replica has seen all the others.
    if (opts.withStore) await sleep(250);
    agent.failures = 0;
    const goAt = Date.now();
    await Promise.all(replicas.map((r) => r.ask({ type: 'go' })));
    await opts.until(goAt, agent);
    const reports = await Promise.all(replicas.map((r) => r.ask<Report>({ type: 'stop' })));
    const opened = replicas.map((r) => r.openedAt);
    const times = opened.filter((t) => t !== undefined);
    const all = times.length === opened.length;
    const allOpenAfterMs = all ? Math.max(...times) - goAt : undefined;
    const spreadMs = all ? Math.max(...times) - Math.min(...times) : undefined;
    return { reports, agentFailures: agent.failures, allOpenAfterMs, spreadMs, goAt };
  }

  const allOpen = () => waitFor(() => replicas.every((r) => r.openedAt !== undefined), 5_000, 'every replica to open').then(() => sleep(200));
  const sum = (reports: Report[], f: (r: Report) => number): number => reports.reduce((n, r) => n + f(r), 0);
  const breakerOptions = { retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 20 }, circuitBreaker: breaker };

  it('with the store the agent sees about consecutiveFailures health failures before all 8 fail fast; without it, 8x', async () => {
    const shared = await scenario({ withStore: true, mode: 'fail', options: breakerOptions, until: allOpen });
    const alone = await scenario({ withStore: false, mode: 'fail', options: breakerOptions, until: allOpen });
    const retries = (o: Outcome): string => `${sum(o.reports, (r) => r.retries)} retries / ${sum(o.reports, (r) => r.requests)} requests`;
    process.stdout.write(
      `fleet breaker: agent saw ${shared.agentFailures} health failures with the store (all ${REPLICAS} failing fast ${shared.allOpenAfterMs?.toFixed(0)} ms after the start, ` +
        `${shared.spreadMs?.toFixed(0)} ms after the first opening; ${retries(shared)}), ` +
        `${alone.agentFailures} without (all failing fast after ${alone.allOpenAfterMs?.toFixed(0)} ms; ${retries(alone)})\n`,
    );
    expect(shared.spreadMs).toBeDefined();
    expect(shared.spreadMs).toBeLessThan(1_000);
    // Beyond the threshold: what the replicas had in flight when the fleet's count reached it (one
    // call at a time each: one request each, at most). Cold replicas build their error decoders on
    // their first failure (lazily, for a fast import) and report it late and unevenly; a replica
    // holds its next request until the fleet counted its last failure, so that does not matter
    // (it did: 9450242 made it 16–18, a retry each raced the count).
    expect(shared.agentFailures).toBeLessThanOrEqual(breaker.consecutiveFailures + REPLICAS);
    expect(alone.agentFailures).toBeGreaterThanOrEqual(REPLICAS * breaker.consecutiveFailures);
    // The default budget (10 % + 1/s over 10 s): one floor of 10 for the fleet, give or take the
    // retries taken in the few ms before the replicas' views of each other caught up.
    const requests = sum(shared.reports, (r) => r.requests);
    expect(sum(shared.reports, (r) => r.retries)).toBeLessThanOrEqual(0.1 * requests + 10 + REPLICAS / 2);
    for (const outcome of [shared, alone]) {
      expect(outcome.reports.flatMap((r) => r.errors.filter((e) => !['http', 'circuit-open', 'budget-exhausted'].includes(e.kind)))).toEqual([]);
    }
  }, 30_000);

  it("keeps the fleet's retries within one budget (ratio of the fleet's requests + one floor)", async () => {
    const options = { retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5, budget }, circuitBreaker: false };
    const shared = await scenario({ withStore: true, mode: 'fail', options, until: () => sleep(1_000) });
    const alone = await scenario({ withStore: false, mode: 'fail', options, until: () => sleep(1_000) });
    const figures = [shared, alone].map((o) => {
      const requests = sum(o.reports, (r) => r.requests);
      return { requests, retries: sum(o.reports, (r) => r.retries), allowance: budget.ratio * requests + floor };
    });
    process.stdout.write(
      `fleet budget: ${figures[0]?.retries} retries for ${figures[0]?.requests} requests with the store (fleet allowance ${figures[0]?.allowance.toFixed(0)}), ` +
        `${figures[1]?.retries} for ${figures[1]?.requests} without (one floor per replica)\n`,
    );
    const [withStore, without] = figures;
    expect(withStore?.retries).toBeLessThanOrEqual((withStore?.allowance ?? 0) + REPLICAS);
    expect(without?.retries).toBeGreaterThan((without?.allowance ?? 0) + 2 * floor);
  }, 30_000);

  it('Redis killed and restarted mid-run: no call fails; then the fleet shares its breaker again', async () => {
    let killedAt = 0;
    let failAt = 0;
    const outcome = await scenario({
      withStore: true,
      mode: 'ok',
      options: breakerOptions,
      until: async (_goAt, agent) => {
        await sleep(300);
        killedAt = Date.now();
        await redis.kill();
        await waitFor(() => replicas.every((r) => r.sharedState.includes('degraded')), 5_000, 'every replica to report degraded');
        await sleep(200);
        await redis.restart();
        await waitFor(() => replicas.every((r) => r.sharedState.includes('restored')), 10_000, 'every replica to report restored');
        await sleep(300);
        failAt = Date.now();
        agent.failures = 0;
        agent.mode = 'fail';
        await allOpen();
      },
    });
    const beforeFail = outcome.reports.flatMap((r) => r.errors.filter((e) => e.at < failAt));
    const failuresAfterRestart = outcome.agentFailures;
    process.stdout.write(
      `fleet redis restart: ${sum(outcome.reports, (r) => r.ok)} calls ok, ${beforeFail.length} failed while Redis was killed ${killedAt - outcome.goAt} ms into the run and restarted; ` +
        `after it the agent saw ${failuresAfterRestart} health failures before all ${REPLICAS} failed fast\n`,
    );
    expect(beforeFail).toEqual([]);
    expect(replicas.every((r) => r.sharedState.join() === 'degraded,restored')).toBe(true);
    expect(failuresAfterRestart).toBeLessThanOrEqual(breaker.consecutiveFailures + REPLICAS);
  }, 40_000);
});
