/**
 * Handing the application's `@opentelemetry/api` to the package. Its own module, typed without the
 * API's types, so the package's type declarations do not need the optional peer installed.
 */
import { provideOtelApi, type OtelApi } from './otel-api.js';

/**
 * The `@opentelemetry/api` module (`import * as api from '@opentelemetry/api'`), as
 * {@link useOpenTelemetry} takes it: checked loosely here so these types do not depend on the API's.
 */
export interface OpenTelemetryApiModule {
  /** The API's `trace` (tracers and spans). */
  readonly trace: object;
  /** The API's `context` (the active context). */
  readonly context: object;
  /** The API's `propagation` (`traceparent` / `tracestate` out on every request). */
  readonly propagation: object;
}

/**
 * Hands this package the application's `@opentelemetry/api` (`import * as api from
 * '@opentelemetry/api'; useOpenTelemetry(api)`), to be used instead of looking it up. Needed in the web
 * build (browsers, workers), which has no `require()` to find it; on Node it only saves the lookup.
 * Spans follow the API's active context: without a context manager that tracks async work (Node's
 * AsyncLocalStorage one), a call's span is the child of the context made active with `context.with`.
 * Never throws.
 */
export function useOpenTelemetry(api: OpenTelemetryApiModule): void {
  provideOtelApi(api as OtelApi);
}
