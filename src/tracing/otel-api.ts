/**
 * The application's `@opentelemetry/api`, an optional peer dependency: on Node loaded on first use
 * with `require()` (synchronous, no top-level await, so this package stays `require()`-able from
 * CommonJS), never bundled or pinned. The API keeps its registrations (tracer provider, propagator,
 * context manager) in one process-wide global, so its CommonJS build sees what the application
 * registered through either build. The web build cannot look it up: the application hands it over
 * with `useOpenTelemetry`.
 */
import type * as Otel from '@opentelemetry/api';
import { platform } from '../platform/current.js';

/** The API as this package uses it. */
export type OtelApi = typeof Otel;

/** `undefined`: not looked for yet; `null`: not installed (or not loadable). */
let api: OtelApi | null | undefined;

/** Uses `otel` from now on instead of looking the API up (see `use-open-telemetry.ts`). */
export function provideOtelApi(otel: OtelApi): void {
  api = otel;
}

/**
 * The loaded API, or `undefined` when the application has none installed (or, in the web build, has
 * handed none over). Looks once per process. Never throws: an API that fails to load is reported once
 * as a warning and treated as absent.
 */
export function otelApi(): OtelApi | undefined {
  if (api === undefined) {
    try {
      api = platform.otel() ?? null;
    } catch (error) {
      api = null;
      const code = (error as { code?: unknown }).code;
      if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') {
        platform.warn(`a2a-resilient: @opentelemetry/api is installed but failed to load; tracing is off: ${error instanceof Error ? error.message : String(error)}`, 'A2A_RESILIENT_OTEL');
      }
    }
  }
  return api ?? undefined;
}
