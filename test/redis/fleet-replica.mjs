/**
 * One coordinator replica of the fleet test (test/redis/fleet.test.ts), run as a child process with
 * an IPC channel. It imports the BUILT package by its own name (`a2a-resilient`, `a2a-resilient/redis`
 * resolve through package.json's exports map to dist/), the way a deployed coordinator would: plain
 * Node, no TypeScript loader, the same on Node 20, 22 and 24.
 *
 * Messages from the parent, each answered with one message of the same `type`:
 *   { type: 'setup', agentUrl, redisUrl?, prefix, options, pauseMs }  make a store (when redisUrl) and a client
 *   { type: 'go' }    call `getTask` in a loop (one call at a time, `pauseMs` apart) until 'stop'
 *   { type: 'stop' }  end the loop, close client and store, answer with the report
 * and, unasked: { type: 'opened', at } when its breaker first opens, { type: 'shared-state', status, at }.
 */
import { A2AClient, isA2AClientError } from 'a2a-resilient';
import { redisStateStore } from 'a2a-resilient/redis';

const MAX_ERRORS = 5000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const send = (message) => process.send?.(message);

/** The run being set up or under way. */
let run;

function newRun() {
  return { store: undefined, client: undefined, pauseMs: 10, running: false, loop: undefined, calls: 0, refused: 0, retries: 0, ok: 0, errors: [], openedAt: undefined };
}

async function setup({ agentUrl, redisUrl, prefix, options, pauseMs }) {
  run = newRun();
  run.pauseMs = pauseMs;
  if (redisUrl) {
    run.store = redisStateStore({ url: redisUrl, prefix, syncIntervalMs: 100, timeoutMs: 500 });
    const t0 = Date.now();
    while (run.store.status !== 'synced') {
      if (Date.now() - t0 > 10_000) throw new Error(`store not synced after 10 s (${run.store.status})`);
      await sleep(10);
    }
  }
  const current = run;
  run.client = await A2AClient.connect(agentUrl, {
    ...options,
    ...(run.store ? { sharedState: run.store } : {}),
    onEvent: (event) => {
      if (event.type === 'retry') current.retries++;
      else if (event.type === 'breaker-open' && current.openedAt === undefined && current.running) {
        current.openedAt = event.at;
        send({ type: 'opened', at: event.at });
      } else if (event.type === 'shared-state') send({ type: 'shared-state', status: event.status, at: event.at });
    },
  });
}

async function loop(current) {
  while (current.running) {
    current.calls++;
    try {
      await current.client.getTask({ id: 'task-1' }, { timeouts: { totalMs: 5_000 } });
      current.ok++;
    } catch (error) {
      const kind = isA2AClientError(error) ? error.kind : 'not-an-a2a-error';
      const attempts = isA2AClientError(error) ? error.attempts.length : 0;
      // Refused before reaching the agent: the call never counted as a request.
      if (kind === 'circuit-open' && attempts <= 1) current.refused++;
      if (current.errors.length < MAX_ERRORS) current.errors.push({ at: Date.now(), kind, attempts, message: String(error?.message ?? error).slice(0, 200) });
    }
    await sleep(current.pauseMs);
  }
}

async function stop() {
  const current = run;
  current.running = false;
  await current.loop;
  await current.client?.close();
  await current.store?.close();
  return {
    calls: current.calls,
    ok: current.ok,
    requests: current.calls - current.refused,
    refused: current.refused,
    retries: current.retries,
    openedAt: current.openedAt,
    errors: current.errors,
  };
}

process.on('message', (message) => {
  const answer = async () => {
    switch (message?.type) {
      case 'setup':
        await setup(message);
        return {};
      case 'go':
        run.running = true;
        run.loop = loop(run);
        return {};
      case 'stop':
        return stop();
      default:
        throw new Error(`unknown message ${JSON.stringify(message)}`);
    }
  };
  answer().then(
    (body) => send({ ...body, type: message.type }),
    (error) => send({ type: message.type, error: error instanceof Error ? error.stack : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
send({ type: 'alive' });
