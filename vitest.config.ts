import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * CI's second and third legs (Node 22, Node 24 with the newest dependencies: `A2A_CI_LEG=secondary`,
 * set by .ci/run) skip what does not depend on the Node version and runs on the first leg: the
 * packaging test (npm pack, a fresh install, three compilers) and the property tests (pure decoding
 * and reconciliation logic, thousands of generated inputs). Everything else runs on every leg.
 */
const secondaryLeg = process.env.A2A_CI_LEG === 'secondary';
const ONCE_PER_CI = ['test/package/pack.test.ts', 'test/**/*.property.test.ts'];

export default defineConfig({
  resolve: {
    alias: [
      { find: /^a2a-resilient\/mocks$/, replacement: here('./mocks/index.ts') },
      { find: /^a2a-resilient\/redis$/, replacement: here('./src/redis/index.ts') },
      { find: /^a2a-resilient\/push$/, replacement: here('./src/push/index.ts') },
      { find: /^a2a-resilient\/a2a-js$/, replacement: here('./src/a2a-js/index.ts') },
      { find: /^a2a-resilient\/ai-sdk$/, replacement: here('./src/ai-sdk/index.ts') },
      { find: /^a2a-resilient\/langchain$/, replacement: here('./src/langchain/index.ts') },
      { find: /^a2a-resilient$/, replacement: here('./src/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: secondaryLeg ? [...configDefaults.exclude, ...ONCE_PER_CI] : configDefaults.exclude,
    pool: 'forks',
    // Most test time is spent waiting on loopback servers and timers, not computing: one worker more
    // than the cores keeps them busy (on 2 cores, 3 workers take the suite from ~140 s to ~85 s).
    maxWorkers: availableParallelism() + 1,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // An unhandled rejection or error anywhere fails the run (vitest's default; kept explicit).
    dangerouslyIgnoreUnhandledErrors: false,
    restoreMocks: true,
  },
});
