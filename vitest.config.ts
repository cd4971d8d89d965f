import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * CI runs the suite three times (.ci/run): leg 1 on Node 20 with the lockfile runs everything; legs 2
 * and 3 (`A2A_CI_LEG=node22`, `A2A_CI_LEG=newest`: Node 22 with the lockfile, Node 24 with the newest
 * dependencies) skip what does not depend on the Node version — the packaging test (npm pack, a fresh
 * install, three compilers) and the property tests (pure decoding and reconciliation logic, thousands
 * of generated inputs). Leg 2 also skips the framework suites (@a2a-js/sdk, ADK, the AI SDK, LangChain
 * and the examples built on them): with the lockfile they are leg 1's versions, and leg 3 runs them
 * against the newest ones. Everything else runs on every leg, the docs' blocks included.
 */
const leg = process.env.A2A_CI_LEG;
const ONCE_PER_CI = ['test/package/pack.test.ts', 'test/**/*.property.test.ts'];
const FRAMEWORKS = ['test/a2a-js/**', 'test/ai-sdk/**', 'test/langchain/**', 'test/agent-tool/**', 'test/examples/examples.test.ts'];
const skipped = leg === 'node22' ? [...ONCE_PER_CI, ...FRAMEWORKS] : leg === 'newest' ? ONCE_PER_CI : [];

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
    exclude: [...configDefaults.exclude, ...skipped],
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
