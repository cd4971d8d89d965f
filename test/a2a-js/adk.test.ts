/**
 * `@google/adk` 2.0's `RemoteA2AAgent`, run as the root agent of ADK's `InMemoryRunner` (no LLM), against
 * the official `@a2a-js/sdk` server on loopback, once with `new ClientFactory({ transports:
 * resilientTransportsV03(options) })` and once with ADK's default transports (the control, which proves
 * each fault is real). Faults come from a relay in front of the server (`startFront`): bare 503s, a
 * stream cut mid-answer; a dead agent is a loopback server that resets every connection.
 *
 * What is asserted is what an ADK user sees: the text of the run's events, the `errorMessage` ADK puts on
 * its error event (ADK catches the client's error and keeps only `error.message`), and how long a run takes.
 *
 * The `ClientFactory` is the class of ADK's own nested `@a2a-js/sdk` 0.3.14, imported by file path (the
 * package's `exports` do not reach `node_modules/@google/adk/node_modules/...` by a bare specifier): the
 * ESM build, the very module instance ADK's `RemoteA2AAgent` imports itself.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getLogger, InMemoryRunner, setLogger, type Event as AdkEvent } from '@google/adk';
import { RemoteA2AAgent } from '@google/adk/a2a';
import type { AgentCard as AdkAgentCard } from '../../node_modules/@google/adk/node_modules/@a2a-js/sdk/dist/index.js';
import { ClientFactory } from '../../node_modules/@google/adk/node_modules/@a2a-js/sdk/dist/client/index.js';
import { resilientCardResolver, resilientTransportsV03, type ResilientTransportOptions } from '../../src/a2a-js/index.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';

// ---------------------------------------------------------------------------------------------------
// Nothing but 127.0.0.1: every TCP connection this process opens is recorded and checked at the end.

const remoteAddresses: string[] = [];
const onSocket = (message: unknown): void => {
  const socket = (message as { socket: Socket }).socket;
  socket.once('connect', () => remoteAddresses.push(socket.remoteAddress ?? '?'));
};

// ---------------------------------------------------------------------------------------------------
// A relay in front of the official server.

interface Front {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The JSON-RPC method of every POST that reached the relay, in order (refused ones included). */
  readonly methods: string[];
  /** Answers the next `n` sends (`message/stream`, `message/send`) with a bare 503, not relayed. */
  refuseSends(n: number): void;
  /** Cuts the connection of the next `message/stream` right after relaying the SSE event holding `marker`. */
  dropStreamAfter(marker: string): void;
  close(): Promise<void>;
}

/**
 * Relays every request to `target`; the agent card it relays has the server's base URL replaced by the
 * relay's own, so the interfaces ADK's client calls are the relay's.
 */
async function startFront(target: OfficialServer): Promise<Front> {
  const methods: string[] = [];
  const sockets = new Set<Socket>();
  let refusals = 0;
  let dropMarker: string | undefined;
  let url = '';
  const targetUrl = new URL(target.baseUrl);

  const relay = (req: IncomingMessage, res: ServerResponse, body: Buffer, onAnswer: (upstream: IncomingMessage) => void): void => {
    const upstream = httpRequest(
      { host: targetUrl.hostname, port: targetUrl.port, path: req.url, method: req.method, headers: { ...req.headers, host: targetUrl.host } },
      onAnswer,
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    upstream.end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'GET' && (req.url ?? '').startsWith('/.well-known/')) {
        relay(req, res, body, (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            const card = Buffer.concat(parts).toString('utf8').replaceAll(target.baseUrl, url);
            res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/json' });
            res.end(card);
          });
        });
        return;
      }
      let method = '';
      try {
        method = String((JSON.parse(body.toString('utf8')) as { method?: unknown }).method ?? '');
      } catch {
        method = '(not json)';
      }
      methods.push(method);
      const send = method === 'message/stream' || method === 'message/send';
      if (send && refusals > 0) {
        refusals -= 1;
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('overloaded');
        return;
      }
      const marker = method === 'message/stream' ? dropMarker : undefined;
      if (marker !== undefined) dropMarker = undefined;
      relay(req, res, body, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.flushHeaders();
        if (marker === undefined) {
          answer.pipe(res);
          return;
        }
        let seen = '';
        answer.on('data', (c: Buffer) => {
          const before = seen.length;
          seen += c.toString('utf8');
          const at = seen.indexOf(marker);
          const end = at < 0 ? -1 : seen.indexOf('\n\n', at);
          if (end < 0) {
            res.write(c);
            return;
          }
          // Relay up to the end of the marker's event, then cut the connection (no end of the chunked body).
          res.write(seen.slice(before, end + 2), () => res.socket?.destroy());
          answer.destroy();
        });
        answer.on('end', () => res.end());
      });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    methods,
    refuseSends(n) {
      refusals = n;
    },
    dropStreamAfter(marker) {
      dropMarker = marker;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Running ADK.

type Way = 'resilient' | 'control';

/** A `RemoteA2AAgent` for `agentCard` (a URL ADK resolves itself, or a card), with our factory or ADK's default. */
function remoteAgent(way: Way, agentCard: string | AdkAgentCard, options: ResilientTransportOptions = {}): RemoteA2AAgent {
  return new RemoteA2AAgent({
    name: 'remote',
    agentCard,
    ...(way === 'resilient' ? { clientFactory: new ClientFactory({ transports: resilientTransportsV03(options) }) } : {}),
  });
}

interface Run {
  events: AdkEvent[];
  ms: number;
}

/** One run of `agent` as the root of an `InMemoryRunner` (a fresh session), with `text` as the user's message. */
async function run(runner: InMemoryRunner, text: string): Promise<Run> {
  const events: AdkEvent[] = [];
  const started = performance.now();
  for await (const event of runner.runEphemeral({ userId: 'user', newMessage: { role: 'user', parts: [{ text }] } })) events.push(event);
  return { events, ms: performance.now() - started };
}

const textOf = (e: AdkEvent): string => (e.content?.parts ?? []).map((p) => p.text ?? '').join('');
/** The answer: the text of the turn-completing event. */
const answerOf = (r: Run): string | undefined => {
  const last = r.events.findLast((e) => e.turnComplete === true);
  return last === undefined ? undefined : textOf(last);
};
/** Every `errorMessage` ADK put on the run's events. */
const errorsOf = (r: Run): string[] => r.events.flatMap((e) => (e.errorMessage === undefined ? [] : [e.errorMessage]));
/** What the streamed chunks said, in order: the partial events' text. */
const streamedOf = (r: Run): string => r.events.filter((e) => e.partial === true).map(textOf).join('');
/** ADK's aggregation of the artifact (the non-partial, not turn-completing events). */
const aggregatedOf = (r: Run): string[] => r.events.filter((e) => e.partial === false && e.turnComplete !== true).map(textOf);

const fast: ResilientTransportOptions = { retry: { baseDelayMs: 10, maxDelayMs: 20 } };

// ---------------------------------------------------------------------------------------------------

describe('@google/adk RemoteA2AAgent through resilientTransportsV03 (official server on loopback)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  let adkLogger: ReturnType<typeof getLogger>;

  beforeAll(() => {
    subscribe('net.client.socket', onSocket);
    // ADK logs every remote failure through winston to the console: keep the test output clean.
    adkLogger = getLogger();
    setLogger(null);
  });
  afterAll(() => {
    setLogger(adkLogger);
    unsubscribe('net.client.socket', onSocket);
    // Nothing left the machine: every connection ADK, the SDK and the relays made went to 127.0.0.1.
    expect(remoteAddresses.length).toBeGreaterThan(0);
    expect(new Set(remoteAddresses)).toEqual(new Set(['127.0.0.1']));
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function official(options: Parameters<typeof startOfficialServer>[0] = {}): Promise<{ server: OfficialServer; front: Front }> {
    const server = await startOfficialServer(options);
    cleanups.push(server.close);
    const front = await startFront(server);
    cleanups.push(front.close);
    return { server, front };
  }

  it('two 503s, then the answer: with our factory the run ends with the agent’s text; ADK’s own transports surface the 503', async () => {
    const { front } = await official();
    front.refuseSends(2);
    const ours = await run(new InMemoryRunner({ agent: remoteAgent('resilient', front.url, fast), appName: 'adk-503' }), 'echo the invoice total is 1,200 EUR');
    expect(errorsOf(ours)).toEqual([]);
    expect(answerOf(ours)).toBe('the invoice total is 1,200 EUR');
    expect(front.methods).toEqual(['message/stream', 'message/stream', 'message/stream']);
    expect(ours.ms).toBeLessThan(2_000);

    // Control: the same fault, ADK's default transports.
    const { front: controlFront } = await official();
    controlFront.refuseSends(2);
    const control = await run(new InMemoryRunner({ agent: remoteAgent('control', controlFront.url), appName: 'adk-503-control' }), 'echo the invoice total is 1,200 EUR');
    expect(errorsOf(control)).toEqual(['HTTP error establishing stream for message/stream: 503 Service Unavailable. Response: overloaded']);
    expect(control.events.some((e) => textOf(e).includes('1,200'))).toBe(false);
    expect(controlFront.methods).toEqual(['message/stream']);
  });

  it('a stream cut mid-answer (the card says streaming): with ours every chunk arrives once and the run completes; the control loses the rest', async () => {
    const full = 'chunk 0 chunk 1 chunk 2 chunk 3 chunk 4 chunk 5 ';
    const { front, server } = await official({ chunkDelayMs: 40 });
    expect(server.legacyCard).toMatchObject({ capabilities: { streaming: true } });
    front.dropStreamAfter('chunk 2 ');
    const ours = await run(new InMemoryRunner({ agent: remoteAgent('resilient', front.url, fast), appName: 'adk-drop' }), 'stream 6');
    expect(errorsOf(ours)).toEqual([]);
    expect(streamedOf(ours)).toBe(full); // each chunk once, in order
    expect(aggregatedOf(ours)).toEqual([full]); // ADK's own aggregation of the artifact: the whole text, once
    expect(answerOf(ours)).toBe('streamed 6 chunks');
    expect(front.methods[0]).toBe('message/stream');
    expect(front.methods.filter((m) => m === 'message/stream')).toHaveLength(1); // resumed, never re-sent
    expect(front.methods).toContain('tasks/resubscribe');
    expect(server.received).toHaveLength(1);

    const { front: controlFront } = await official({ chunkDelayMs: 40 });
    controlFront.dropStreamAfter('chunk 2 ');
    const control = await run(new InMemoryRunner({ agent: remoteAgent('control', controlFront.url), appName: 'adk-drop-control' }), 'stream 6');
    expect(streamedOf(control)).toBe('chunk 0 chunk 1 chunk 2 ');
    expect(aggregatedOf(control)).not.toContain(full);
    expect(answerOf(control)).toBe(''); // the turn ends on ADK's error event, without the agent's final message
    expect(errorsOf(control)).toEqual(['terminated']); // the 0.3 SDK's SSE reader gives up with fetch's error
  });

  it('a dead agent: after two failed runs the breaker opens and later runs fail fast, naming the open circuit; the control hits the agent every time', async () => {
    const { server } = await official(); // only for a real card; the agent it names is the dead one
    const dead: FaultServer = await startFaultServer();
    cleanups.push(dead.close);
    let hits = 0;
    dead.route('/a2a/jsonrpc', (req) => {
      hits += 1;
      req.socket.resetAndDestroy();
    });
    // ADK resolves a card URL itself (no hook): a dead agent cannot serve one, so the card is given.
    const card = JSON.parse(JSON.stringify(server.legacyCard).replaceAll(server.baseUrl, dead.url)) as AdkAgentCard;
    const options: ResilientTransportOptions = { retry: { maxAttempts: 1 }, circuitBreaker: { consecutiveFailures: 2, halfOpenAfterMs: 60_000 } };
    const runner = new InMemoryRunner({ agent: remoteAgent('resilient', card, options), appName: 'adk-dead' });

    const first = await run(runner, 'echo hi');
    const second = await run(runner, 'echo hi');
    for (const r of [first, second]) {
      expect(errorsOf(r)).toHaveLength(1);
      expect(errorsOf(r)[0]).toMatch(/reset/i);
    }
    expect(hits).toBe(2);

    const later = [await run(runner, 'echo hi'), await run(runner, 'echo hi'), await run(runner, 'echo hi')];
    for (const r of later) {
      expect(errorsOf(r)).toHaveLength(1);
      expect(errorsOf(r)[0]).toMatch(/circuit.*open|open.*circuit/i);
      expect(r.ms).toBeLessThan(200);
    }
    expect(hits).toBe(2); // nothing more reached the agent

    // Control: ADK's transports have no breaker; every run goes to the dead agent again.
    const controlRunner = new InMemoryRunner({ agent: remoteAgent('control', card), appName: 'adk-dead-control' });
    for (let i = 0; i < 4; i++) {
      const r = await run(controlRunner, 'echo hi');
      expect(errorsOf(r)).toHaveLength(1);
      expect(errorsOf(r)[0]).not.toMatch(/circuit/i);
    }
    expect(hits).toBe(6);
  });

  it('a failed task (fail E42) is surfaced as ADK surfaces it, the same as with ADK’s own transports', async () => {
    const { front } = await official();
    const ours = await run(new InMemoryRunner({ agent: remoteAgent('resilient', front.url, fast), appName: 'adk-fail' }), 'fail E42');
    const control = await run(new InMemoryRunner({ agent: remoteAgent('control', front.url), appName: 'adk-fail-control' }), 'fail E42');
    const shape = (r: Run) => r.events.map((e) => ({ author: e.author, errorMessage: e.errorMessage, text: textOf(e), turnComplete: e.turnComplete }));
    expect(errorsOf(ours)).toEqual(['scripted failure E42']);
    const last = ours.events.at(-1);
    expect(last?.turnComplete).toBe(true);
    expect(last?.content).toBeUndefined(); // ADK puts a failed task's text in errorMessage, not in content
    expect(shape(ours)).toEqual(shape(control));
    // A failed task is the agent's answer, not a transport failure: sent once each, never retried.
    expect(front.methods).toEqual(['message/stream', 'message/stream']);
  });

  it('the card fetched through resilientCardResolver (ADK has no resolver hook: it takes a card object) runs the same way', async () => {
    const { front, server } = await official();
    const options: ResilientTransportOptions = { ...fast, timeouts: { totalMs: 5_000 } };
    const card = await resilientCardResolver<AdkAgentCard>(options).resolve(front.url);
    expect(card.url).toBe(`${front.url}/a2a/jsonrpc`);
    front.refuseSends(1);
    const ours = await run(new InMemoryRunner({ agent: remoteAgent('resilient', card, options), appName: 'adk-card' }), 'echo resolved once');
    expect(errorsOf(ours)).toEqual([]);
    expect(answerOf(ours)).toBe('resolved once');
    expect(front.methods).toEqual(['message/stream', 'message/stream']);
    expect(server.requests.filter((r) => r.startsWith('GET /.well-known/'))).toHaveLength(3); // the helper's two reads at start, then ours; ADK fetched none
  });
});
