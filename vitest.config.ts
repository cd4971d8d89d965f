import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^a2a-resilient\/mocks$/, replacement: here('./mocks/index.ts') },
      { find: /^a2a-resilient$/, replacement: here('./src/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // An unhandled rejection or error anywhere fails the run (vitest's default; kept explicit).
    dangerouslyIgnoreUnhandledErrors: false,
    restoreMocks: true,
  },
});
