/**
 * Content types: JSON as A2A posts it (`application/json`, `application/a2a+json`, any case, with
 * parameters) is taken; anything a browser could send without a preflight (`text/plain`, a form,
 * multipart), none at all, or another JSON-looking type is 415, and nothing is delivered.
 */
import { describe, expect, it } from 'vitest';
import { pushReceiver } from '../../src/push/index.js';
import { chunks, take, v1 } from './payloads.js';

function post(body: string, contentType: string | undefined): Request {
  const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
  return new Request('http://127.0.0.1/push', { method: 'POST', headers, body });
}

describe('content types', () => {
  it('accepts application/json and application/a2a+json with parameters; 415 for the rest', async () => {
    const receiver = pushReceiver({ auth: () => true });
    const iteration = receiver.events('t1');
    const body = (text: string): string => JSON.stringify(v1.chunk('t1', text, true));
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"', 'application/a2a+json', 'application/a2a+json; charset=utf-8']) {
      expect((await receiver.handleRequest(post(body(type), type))).status, type).toBe(204);
    }
    const refusedTypes = [undefined, 'text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'application/json-patch+json', 'application/xml', ''];
    for (const type of refusedTypes) {
      const res = await receiver.handleRequest(post(body(`refused ${String(type)}`), type));
      expect(res.status, String(type)).toBe(415);
      expect(res.headers.get('accept')).toContain('application/json');
    }
    await receiver.close();
    expect(chunks(await take(iteration)).some((t) => t.startsWith('refused'))).toBe(false);
  });
});
