/**
 * Push-config authentication per version: the model's `authentication { scheme, credentials }` (A2A
 * 1.0.1) and `token` are written as v1.0 `authentication { scheme, credentials }` and v0.3
 * `authentication { schemes: [scheme], credentials }` (JSON-RPC and ProtoJSON REST), and read back
 * from either — including the `schemes` list the 1.0.0 specification's example still showed. A
 * property: whatever a caller registers comes back equal after the agent echoes the wire object.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { VersionCodec } from '../../src/protocol/codec.js';
import type { PushNotificationConfig } from '../../src/protocol/method-params.js';
import { v03Codec, v03RestCodec } from '../../src/protocol/v03/codec.js';
import { v1Codec } from '../../src/protocol/v1/codec.js';

const config: PushNotificationConfig = { id: 'c1', url: 'https://hook.example/a2a', token: 'tok-1', authentication: { scheme: 'Bearer', credentials: 's3cret' } };

describe('push-config authentication on the wire', () => {
  it('v1.0: authentication { scheme, credentials } and the token, flat beside taskId', () => {
    expect(v1Codec.encode.createTaskPushNotificationConfig({ taskId: 't1', config })).toEqual({
      taskId: 't1',
      id: 'c1',
      url: 'https://hook.example/a2a',
      token: 'tok-1',
      authentication: { scheme: 'Bearer', credentials: 's3cret' },
    });
  });

  it('v1.0: the same shape inside a send’s configuration.taskPushNotificationConfig', () => {
    const message = { kind: 'message' as const, messageId: 'm1', role: 'user' as const, parts: [{ kind: 'text' as const, text: 'hi' }] };
    const wire = v1Codec.encode.sendMessage({ message, configuration: { pushNotificationConfig: config } }) as { configuration: unknown };
    expect(wire.configuration).toEqual({ taskPushNotificationConfig: { taskId: '', id: 'c1', url: 'https://hook.example/a2a', token: 'tok-1', authentication: { scheme: 'Bearer', credentials: 's3cret' } } });
  });

  it('v0.3 JSON-RPC: pushNotificationConfig with token and authentication { schemes: [scheme], credentials }', () => {
    expect(v03Codec.encode.createTaskPushNotificationConfig({ taskId: 't1', config })).toEqual({
      taskId: 't1',
      pushNotificationConfig: { id: 'c1', url: 'https://hook.example/a2a', token: 'tok-1', authentication: { schemes: ['Bearer'], credentials: 's3cret' } },
    });
  });

  it('v0.3 REST (ProtoJSON): the same config under its resource name', () => {
    expect(v03RestCodec.encode.createTaskPushNotificationConfig({ taskId: 't1', config })).toEqual({
      name: 'tasks/t1/pushNotificationConfigs/c1',
      pushNotificationConfig: { id: 'c1', url: 'https://hook.example/a2a', token: 'tok-1', authentication: { schemes: ['Bearer'], credentials: 's3cret' } },
    });
  });

  it('a token alone stays a token in both versions (no authentication invented)', () => {
    const tokenOnly = { url: 'https://h', token: 'tok' };
    expect(v1Codec.encode.createTaskPushNotificationConfig({ taskId: 't1', config: tokenOnly })).toEqual({ taskId: 't1', url: 'https://h', token: 'tok' });
    expect(v03Codec.encode.createTaskPushNotificationConfig({ taskId: 't1', config: tokenOnly })).toEqual({ taskId: 't1', pushNotificationConfig: { url: 'https://h', token: 'tok' } });
  });

  it('reads the 1.0.1 shape, the 1.0.0 example’s schemes list, and a ProtoJSON config without a scheme', () => {
    const read = (authentication: unknown) => v1Codec.decode.getTaskPushNotificationConfig({ taskId: 't1', url: 'https://h', authentication }).config.authentication;
    expect(read({ scheme: 'Basic', credentials: 'dTpw' })).toEqual({ scheme: 'Basic', credentials: 'dTpw' });
    expect(read({ schemes: ['Bearer'], credentials: 'x' })).toEqual({ scheme: 'Bearer', credentials: 'x' });
    expect(read({ credentials: 'x' })).toEqual({ scheme: '', credentials: 'x' });
    expect(() => read({ scheme: 7 })).toThrow(expect.objectContaining({ kind: 'invalid-response', field: 'result.authentication.scheme' }));
  });

  it('reads a v0.3 list of schemes as its first, keeping the list in raw', () => {
    const wire = { taskId: 't1', pushNotificationConfig: { url: 'https://h', token: 'tok', authentication: { schemes: ['Bearer', 'Basic'], credentials: 'x' } } };
    const back = v03Codec.decode.getTaskPushNotificationConfig(wire);
    expect(back.config).toEqual({ url: 'https://h', token: 'tok', authentication: { scheme: 'Bearer', credentials: 'x' } });
    expect(back.raw).toBe(wire);
  });
});

const text = fc.string({ minLength: 1, maxLength: 12 });
const modelConfig: fc.Arbitrary<PushNotificationConfig> = fc.record(
  {
    id: text,
    url: fc.webUrl(),
    token: fc.string({ maxLength: 12 }),
    authentication: fc.record({ scheme: fc.constantFrom('Bearer', 'Basic', 'Digest', 'bearer', 'X-Custom'), credentials: text }, { requiredKeys: ['scheme'] }),
  },
  { requiredKeys: ['url'] },
);

const CODECS: ReadonlyArray<[string, VersionCodec]> = [
  ['v1.0', v1Codec],
  ['v0.3 JSON-RPC', v03Codec],
  ['v0.3 REST', v03RestCodec],
];

describe.each(CODECS)('%s push config round trip (property)', (_name, codec) => {
  it('encode → the agent echoes the wire object → decode gives back the caller’s config', () => {
    fc.assert(
      fc.property(text, modelConfig, (taskId, c) => {
        // An agent echoes what it stored: the request object is the response object in every version.
        const wire = JSON.parse(JSON.stringify(codec.encode.createTaskPushNotificationConfig({ taskId, config: c }))) as unknown;
        const back = codec.decode.createTaskPushNotificationConfig(wire);
        expect(back.config).toEqual(c);
        // v0.3 REST names the task in a resource name (`tasks/{id}/pushNotificationConfigs/{cid}`), unescaped.
        if (codec !== v03RestCodec || !`${taskId}${c.id ?? ''}`.includes('/')) expect(back.taskId).toBe(taskId);
      }),
      { numRuns: 500 },
    );
  });
});
