/** Small fetch helpers for the mock tests (loopback or msw only). */

/** POSTs a JSON-RPC request and returns the parsed response body. */
export async function rpc(url: string, method: string, params: unknown, headers: Record<string, string> = {}, id: string | number = 1): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  return res.json();
}

/** Reads an SSE body and returns each `data:` payload parsed, in order. */
export async function readSse(res: Response): Promise<unknown[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((f) => f.startsWith('data: '))
    .map((f) => JSON.parse(f.slice('data: '.length)) as unknown);
}

/** Reads SSE frames as they arrive, recording the arrival time of each, until the body ends or fails. */
export async function timedSse(res: Response): Promise<{ frames: Array<{ at: number; data: unknown }>; error?: unknown }> {
  const frames: Array<{ at: number; data: unknown }> = [];
  const reader = res.body?.getReader();
  if (!reader) return { frames };
  const dec = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { frames };
      buf += dec.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const frame = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (frame.startsWith('data: ')) frames.push({ at: Date.now(), data: JSON.parse(frame.slice(6)) as unknown });
      }
    }
  } catch (error: unknown) {
    return { frames, error };
  }
}

/** A v1.0 user message with one text part. */
export function v1Msg(text: string, messageId = 'm-1'): Record<string, unknown> {
  return { message: { messageId, role: 'ROLE_USER', parts: [{ text }] } };
}

/** A v0.3 user message with one text part. */
export function v03Msg(text: string, messageId = 'm-1'): Record<string, unknown> {
  return { message: { kind: 'message', messageId, role: 'user', parts: [{ kind: 'text', text }] } };
}
