/**
 * The contenders of the unary and streaming sections. Each has a `key`, a display `name` and
 * `open(baseUrl)` → `{ unary?(), stream?(n), close() }`. SDK contenders are left out (with the
 * reason) when the SDK failed to load.
 */
import { connectOfficial, officialStream, officialUnary } from './official.mjs';
import { rawClient, rpcUrlOf } from './raw.mjs';
import { assertNoTerminalError, textParams } from './sdk.mjs';

/** Contender keys used for ratios. */
export const RAW = 'raw';
export const OFFICIAL = 'official';

function rawContender(name) {
  return {
    key: RAW,
    name,
    async open(baseUrl) {
      const c = rawClient(await rpcUrlOf(baseUrl));
      return { unary: c.unary, stream: c.stream, close: c.close };
    },
  };
}

function officialContender(name) {
  return {
    key: OFFICIAL,
    name,
    async open(baseUrl) {
      const client = await connectOfficial(baseUrl);
      return {
        unary: () => officialUnary(client),
        stream: (n) => officialStream(client, n),
        close: async () => {},
      };
    },
  };
}

/** An a2a-resilient contender; `mode` picks the public method exercised. */
export function resilientContender(sdk, key, name, mode, options = {}) {
  return {
    key,
    name,
    async open(baseUrl) {
      const client = await sdk.A2AClient.connect(baseUrl, options);
      const params = textParams('hi');
      return {
        async unary() {
          if (mode === 'invoke') {
            assertNoTerminalError(sdk, await client.invoke('hi'));
          } else {
            const r = await client.sendMessage(params);
            if (r === undefined || r === null) throw new Error('a2a-resilient sendMessage resolved nothing');
          }
        },
        async stream(n) {
          let count = 0;
          if (mode === 'invoke' || mode === 'stream') {
            for await (const ev of client.stream(`stream ${n}`)) {
              if (sdk.isTerminalError(ev)) throw new Error(`a2a-resilient stream error: ${ev.error?.message}`);
              count++;
            }
          } else {
            for await (const ev of client.sendStreamingMessage(textParams(`stream ${n}`))) if (ev) count++;
          }
          return count;
        },
        close: () => client.close(),
      };
    },
  };
}

/** Contenders of the unary section, in table order. */
export function unaryContenders(sdk) {
  const list = [rawContender('raw undici.request'), officialContender('@a2a-js/sdk (official)')];
  if (sdk) {
    list.push(
      resilientContender(sdk, 'invoke', 'a2a-resilient invoke', 'invoke'),
      resilientContender(sdk, 'sendMessage', 'a2a-resilient sendMessage', 'sendMessage'),
      resilientContender(sdk, 'invoke_fetch', "a2a-resilient invoke, fetch: 'global'", 'invoke', { fetch: 'global' }),
    );
  }
  return list;
}

/** Contenders of the streaming section, in table order. */
export function streamContenders(sdk) {
  const list = [rawContender('raw undici + eventsource-parser'), officialContender('@a2a-js/sdk (official)')];
  if (sdk) {
    list.push(
      resilientContender(sdk, 'sendStreamingMessage', 'a2a-resilient sendStreamingMessage', 'sendStreamingMessage'),
      resilientContender(sdk, 'stream', 'a2a-resilient stream', 'stream'),
    );
  }
  return list;
}
