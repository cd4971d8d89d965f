/** Request bodies for the official server, per version and binding (see official-server.test.ts). */
import { randomUUID } from 'node:crypto';

/** Header every v1.0 call must carry; without it the official server treats the call as v0.3. */
export const V1 = { 'A2A-Version': '1.0' } as const;

/** A JSON-RPC 2.0 request envelope. */
export const rpc = (method: string, params: unknown, id: number | string = 1) => ({ jsonrpc: '2.0', id, method, params });

/** v1.0 `SendMessageRequest` (JSON-RPC params and REST body): ProtoJSON roles, parts without `kind`. */
export const v1Send = (text: string, configuration?: Record<string, unknown>) => ({
  message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text, mediaType: 'text/plain' }] },
  ...(configuration === undefined ? {} : { configuration }),
});

/** v0.3 JSON-RPC `MessageSendParams`: `kind` discriminators, lowercase roles. */
export const v03Send = (text: string, configuration?: Record<string, unknown>) => ({
  message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }] },
  ...(configuration === undefined ? {} : { configuration }),
});

/** v0.3 REST body (`/v1/message:send`): v0.3 *proto* JSON — `request` + `content`, not `message` + `parts`. */
export const v03RestSend = (text: string, configuration?: Record<string, unknown>) => ({
  request: { messageId: randomUUID(), role: 'ROLE_USER', content: [{ text }] },
  ...(configuration === undefined ? {} : { configuration }),
});
