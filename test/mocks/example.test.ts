import { expect, it } from 'vitest';
import { main } from '../../examples/testing-your-coordinator.js';

it('examples/testing-your-coordinator runs against the mocks', async () => {
  const r = await main();
  expect(r.ok).toContain('flaky');
  expect(r.flakyAttempts).toBe(3);
  expect(r.sameMessageId).toBe(true);
  expect(r.failed).toEqual([{ agent: 'broken', code: 'REMOTE_VALIDATION_FAILED' }]);
});
