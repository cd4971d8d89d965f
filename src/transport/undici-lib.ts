import { createRequire } from 'node:module';

/** The undici package's exports (its public API). */
export type UndiciLib = typeof import('undici');

/** What the default engine needs of undici: its `Agent` and `buildConnector` (the same objects the package exports). */
export type UndiciCore = Pick<UndiciLib, 'Agent' | 'buildConnector'>;

let lib: UndiciLib | undefined;
let core: UndiciCore | undefined;

/**
 * undici, loaded on first use instead of by a static `import`: importing a2a-resilient must not pay
 * for it (~70 ms and ~18 MB on Node 20), an engine or a proxy dispatcher is the first to need it.
 * Synchronous (`require`: undici is CommonJS, so this is the very instance `import 'undici'` gives,
 * and a caller's own dispatchers, errors and global dispatcher are the same objects as ours).
 * @throws whatever loading undici throws (a broken install).
 */
export function undici(): UndiciLib {
  return (lib ??= load<UndiciLib>('undici'));
}

/**
 * undici's `Agent` and `buildConnector` without the rest of the package, for the default engine
 * (no proxy): the package's index also loads fetch, WebSocket, the cache, the mocks, and — by reading
 * `globalThis.Headers` — Node's own copy of undici: 115–180 ms and ~9 MB before the first request,
 * against ~50 ms for these two modules (Node 20, measured by `bench/cold-start.mjs`). They are the very
 * modules the index re-exports, so a caller's `undici.Agent` is this `Agent`. Where the package is
 * already loaded, on Bun (whose `undici` is its own module) or if its files ever move, this is the
 * package's own export.
 * @throws whatever loading undici throws (a broken install).
 */
export function undiciCore(): UndiciCore {
  if (core !== undefined) return core;
  if (lib !== undefined || (globalThis as { Bun?: unknown }).Bun !== undefined) return (core = undici());
  let Agent: unknown;
  let buildConnector: unknown;
  try {
    Agent = load('undici/lib/dispatcher/agent.js');
    buildConnector = load('undici/lib/core/connect.js');
  } catch {
    // A layout this version of the SDK does not know: the package's index has the same exports.
    return (core = undici());
  }
  const dispatches = typeof Agent === 'function' && typeof (Agent.prototype as { dispatch?: unknown }).dispatch === 'function';
  core = dispatches && typeof buildConnector === 'function' ? ({ Agent, buildConnector } as UndiciCore) : undici();
  return core;
}

function load<T>(id: string): T {
  return createRequire(import.meta.url)(id) as T;
}
