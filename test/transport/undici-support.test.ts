/**
 * The engine a client gets by default depends on whether the runtime's undici can carry the undici
 * engine. On Node it can (Bun's substitute cannot: covered by `npm run test:runtimes`, see
 * test/runtimes/).
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/transport/create-engine.js';
import { undiciEngineWorksHere, undiciSupport } from '../../src/transport/undici-support.js';

describe('the default engine per runtime', () => {
  it('is the undici engine on Node, whose undici Agent dispatches and closes', async () => {
    expect(undiciEngineWorksHere()).toBe(true);
    const engine = createEngine();
    expect(engine.name).toBe('undici');
    await engine.close();
    const direct = undiciSupport?.engine({});
    expect(direct?.name).toBe('undici');
    await direct?.close();
  });

  it('is the fetch engine when the caller passes fetch', async () => {
    const engine = createEngine({ fetch: 'global' });
    expect(engine.name).toBe('fetch');
    await engine.close();
  });
});
