/**
 * The application's `@opentelemetry/api`, an optional peer dependency: loaded on first use with
 * `require()` (synchronous, no top-level await, so this package stays `require()`-able from
 * CommonJS), never bundled or pinned. The API keeps its registrations (tracer provider, propagator,
 * context manager) in one process-wide global, so its CommonJS build sees what the application
 * registered through either build.
 */
import { createRequire } from 'node:module';
import type * as Otel from '@opentelemetry/api';

/** The API as this package uses it. */
export type OtelApi = typeof Otel;

/** `undefined`: not looked for yet; `null`: not installed (or not loadable). */
let api: OtelApi | null | undefined;

/**
 * The loaded API, or `undefined` when the application has none installed. Looks once per process.
 * Never throws: an API that fails to load is reported once with `process.emitWarning` and treated
 * as absent.
 */
export function otelApi(): OtelApi | undefined {
  if (api === undefined) {
    try {
      api = createRequire(import.meta.url)('@opentelemetry/api') as OtelApi;
    } catch (error) {
      api = null;
      const code = (error as { code?: unknown }).code;
      if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') {
        process.emitWarning(`a2a-resilient: @opentelemetry/api is installed but failed to load; tracing is off: ${error instanceof Error ? error.message : String(error)}`, {
          code: 'A2A_RESILIENT_OTEL',
        });
      }
    }
  }
  return api ?? undefined;
}
