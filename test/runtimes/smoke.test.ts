/**
 * The runtime smoke test (./smoke.mjs, which `npm run test:runtimes` runs in Bun, Deno, workerd and
 * Chromium) run here on Node against the same loopback agents: every check passes, the agents saw
 * one send and a resubscribe for the dropped stream, and two sends for the 503.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSideFailures, startAgents } from './agents.mjs';
import { CHECKS, runSmoke } from './smoke.mjs';

let started: Awaited<ReturnType<typeof startAgents>>;
beforeAll(async () => {
  started = await startAgents();
});
afterAll(() => started.close());

describe('runtime smoke test on Node', () => {
  it('passes every check, with the outcome each asserts', async () => {
    const report = await runSmoke(started.urls);
    expect(report.runtime).toBe(`node ${process.versions.node}`);
    expect(report.results.filter((r) => !r.ok)).toEqual([]);
    expect(report.results.map((r) => r.name)).toEqual(CHECKS);
    expect(agentSideFailures(started.agents, CHECKS)).toEqual([]);
  });
});
