/**
 * Shared setup of the end-to-end resilience tests: a mock agent served either through msw with the
 * fetch engine or on a loopback server with the undici engine, and a connected client; everything
 * is closed after each test. Names are unique because breakers and budgets are per origin.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { A2AClient, type ClientOptions } from '../../src/index.js';
import type { MockAgent } from '../../mocks/index.js';

/** How the agent is reached. */
export type Way = 'msw+fetch' | 'loopback+undici';
export const WAYS: readonly Way[] = ['msw+fetch', 'loopback+undici'];

let seq = 0;
/** A name no other test uses. */
export const uniqueName = (prefix: string): string => `${prefix}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

/** Registers the hooks; returns `serve(way, agent, options)` → a connected client. */
export function useE2E(): { serve: (way: Way, agent: MockAgent, options: ClientOptions) => Promise<A2AClient> } {
  const msw = setupServer();
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(() => msw.listen({ onUnhandledRequest: 'bypass' }));
  afterEach(async () => {
    msw.resetHandlers();
    await Promise.all(cleanups.splice(0).map((c) => c()));
  });
  afterAll(() => msw.close());
  return {
    serve: async (way, agent, extra) => {
      let url = agent.url;
      let options: ClientOptions = { ...extra };
      if (way === 'msw+fetch') {
        msw.use(...agent.handlers);
        options = { ...options, fetch: 'global' };
      } else {
        const server = await agent.listen();
        cleanups.push(server.close);
        url = server.url;
      }
      const client = await A2AClient.connect(url, options);
      cleanups.unshift(() => client.close());
      return client;
    },
  };
}
