/**
 * The example at the top of the mocks' docs (`mocks/index.ts`, the first thing an editor shows for
 * `a2a-resilient/mocks`) is run here as it is written, so it cannot promise what it does not do.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { A2AClient, type AgentEvent } from '../../src/index.js';
import { failFirst, httpError, mockAgent, replyText, stream, type MockAgent } from '../../mocks/index.js';

/** The ```ts block of the first doc comment of mocks/index.ts, without the comment's ` * `. */
function headlineExample(): string {
  const source = readFileSync(new URL('../../mocks/index.ts', import.meta.url), 'utf8');
  const block = /\* ```ts\n([\s\S]*?)\n \* ```/.exec(source)?.[1];
  if (block === undefined) throw new Error('mocks/index.ts has no ```ts example');
  return block
    .split('\n')
    .map((line) => line.replace(/^ \* ?/, ''))
    .join('\n');
}

type Run = (...args: unknown[]) => Promise<{ agent: MockAgent; answer: AgentEvent[]; streamed: string }>;

describe('the mocks headline example', () => {
  it('does what its comments say: "ok" after two 503s, and the streamed "hi" despite the drop', async () => {
    const code = headlineExample();
    // The example is plain JavaScript (no type annotations), so it runs as written.
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => Run;
    const run = new AsyncFunction('mockAgent', 'failFirst', 'httpError', 'replyText', 'stream', 'A2AClient', `${code}\nreturn { agent, answer, streamed };`);
    const started = performance.now();
    const { agent, answer, streamed } = await run(mockAgent, failFirst, httpError, replyText, stream, A2AClient);
    expect(answer.at(-1)).toMatchObject({ done: true, text: 'ok' });
    expect(answer.some((e) => e.error !== undefined)).toBe(false);
    expect(agent.callsOf('sendMessage')).toHaveLength(3);
    // Each 503 asked for 1 s, and got it.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(streamed).toBe('hi');
  }, 15_000);
});
