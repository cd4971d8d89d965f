// What `client.conversation(init)` accepts: `{ contextId? }` or a `toJSON()` result; anything else is a
// typed `unsupported` error naming the field, never a crash.
import fc from 'fast-check';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import { A2AClient, A2AClientError, isA2AClientError, type Conversation, type ConversationInit, type ConversationSnapshot, type TaskState } from '../../src/index.js';
import { mockAgent } from '../../mocks/index.js';

const client = new A2AClient(mockAgent({ name: 'state-agent', version: '1.0', binding: 'JSONRPC' }).card);
afterAll(async () => {
  await client.close();
});

function refusal(init: unknown): A2AClientError {
  try {
    client.conversation(init as ConversationInit);
  } catch (error) {
    if (error instanceof A2AClientError) return error;
    throw error;
  }
  throw new Error('expected the init to be refused');
}

const STATES: TaskState[] = ['submitted', 'working', 'input-required', 'auth-required', 'completed', 'failed', 'canceled', 'rejected', 'unknown'];

describe('conversation state', () => {
  it('starts empty, from a contextId, or from a snapshot', () => {
    expect(client.conversation().toJSON()).toEqual({ version: 1 });
    expect(client.conversation({}).toJSON()).toEqual({ version: 1 });
    const known = client.conversation({ contextId: 'ctx-1' });
    expect([known.contextId, known.taskId, known.lastTaskId, known.state]).toEqual(['ctx-1', undefined, undefined, undefined]);
    const open = client.conversation({ version: 1, contextId: 'ctx-1', lastTaskId: 't-1', state: 'auth-required' });
    expect([open.taskId, open.lastTaskId, open.state]).toEqual(['t-1', 't-1', 'auth-required']);
    const closed = client.conversation({ version: 1, contextId: 'ctx-1', lastTaskId: 't-1', state: 'completed' });
    expect([closed.taskId, closed.lastTaskId]).toEqual([undefined, 't-1']);
  });

  it.each([
    [{ contextId: '' }, 'contextId'],
    [{ contextId: 7 }, 'contextId'],
    [{ taskId: 't-1' }, 'taskId'],
    [{ version: 2, contextId: 'c' }, 'version'],
    [{ version: '1' }, 'version'],
    [{ version: 1, contextId: 'c', lastTaskId: 't', state: 'done' }, 'state'],
    [{ version: 1, contextId: 'c', lastTaskId: 't' }, 'state'],
    [{ version: 1, contextId: 'c', state: 'completed' }, 'state'],
    [{ version: 1, lastTaskId: 't', state: 'completed' }, 'contextId'],
    [{ version: 1, contextId: 'c', secret: 'x' }, 'secret'],
  ])('refuses %j with kind unsupported, naming %s', (init, field) => {
    const error = refusal(init);
    expect([error.kind, error.field, error.method, error.agent]).toEqual(['unsupported', field, 'conversation', 'state-agent']);
    expect(error.message).toContain(field);
  });

  it.each([null, 'ctx-1', 42, ['ctx-1']])('refuses %j, which is not an object', (init) => {
    expect(refusal(init).kind).toBe('unsupported');
  });

  it('round-trips every valid state through JSON text', () => {
    const snapshot = fc.oneof(
      fc.record({ version: fc.constant(1 as const), contextId: fc.string({ minLength: 1, maxLength: 40 }) }, { requiredKeys: ['version'] }),
      fc.record({
        version: fc.constant(1 as const),
        contextId: fc.string({ minLength: 1, maxLength: 40 }),
        lastTaskId: fc.string({ minLength: 1, maxLength: 40 }),
        state: fc.constantFrom(...STATES),
      }),
    );
    fc.assert(
      fc.property(snapshot, (s: ConversationSnapshot) => {
        const restored = client.conversation(JSON.parse(JSON.stringify(client.conversation(s))) as ConversationSnapshot);
        expect(restored.toJSON()).toEqual(s);
      }),
    );
  });

  it('any JSON value either starts a conversation or is refused as unsupported — nothing else is thrown', () => {
    const near = fc.record(
      {
        version: fc.oneof(fc.constant(1), fc.jsonValue()),
        contextId: fc.oneof(fc.string(), fc.jsonValue()),
        lastTaskId: fc.oneof(fc.string(), fc.jsonValue()),
        state: fc.oneof(fc.constantFrom(...STATES), fc.jsonValue()),
        taskId: fc.string(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), near), (init) => {
        try {
          const chat = client.conversation(init as ConversationInit);
          expect(chat.toJSON().version).toBe(1);
        } catch (error) {
          expect(isA2AClientError(error) && error.kind).toBe('unsupported');
        }
      }),
      { numRuns: 500 },
    );
  });

  it('types the conversation surface', () => {
    expectTypeOf<A2AClient['conversation']>().returns.toEqualTypeOf<Conversation>();
    expectTypeOf<Conversation['toJSON']>().returns.toEqualTypeOf<ConversationSnapshot>();
    expectTypeOf<Conversation['state']>().toEqualTypeOf<TaskState | undefined>();
    expectTypeOf<Conversation['taskId']>().toEqualTypeOf<string | undefined>();
  });
});
