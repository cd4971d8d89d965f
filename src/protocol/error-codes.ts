/**
 * The JSON-RPC / A2A error code table: names and the HTTP status a REST server uses for each.
 */

/** One row of the code table. */
export interface ErrorCodeInfo {
  /** A2A (or JSON-RPC) name, e.g. `TaskNotFound`. */
  name: string;
  /** HTTP status the REST binding uses for it. */
  httpStatus: number;
}

/** JSON-RPC standard and A2A error codes. v0.3 name variants are in {@link V03_NAMES}. */
export const ERROR_CODES: Readonly<Record<number, ErrorCodeInfo>> = Object.freeze({
  [-32700]: { name: 'JSONParseError', httpStatus: 400 },
  [-32600]: { name: 'InvalidRequest', httpStatus: 400 },
  [-32601]: { name: 'MethodNotFound', httpStatus: 404 },
  [-32602]: { name: 'InvalidParams', httpStatus: 400 },
  [-32603]: { name: 'InternalError', httpStatus: 500 },
  [-32001]: { name: 'TaskNotFound', httpStatus: 404 },
  [-32002]: { name: 'TaskNotCancelable', httpStatus: 400 },
  [-32003]: { name: 'PushNotificationNotSupported', httpStatus: 400 },
  [-32004]: { name: 'UnsupportedOperation', httpStatus: 400 },
  [-32005]: { name: 'ContentTypeNotSupported', httpStatus: 400 },
  [-32006]: { name: 'InvalidAgentResponse', httpStatus: 500 },
  [-32007]: { name: 'ExtendedAgentCardNotConfigured', httpStatus: 400 },
  [-32008]: { name: 'ExtensionSupportRequired', httpStatus: 400 },
  [-32009]: { name: 'VersionNotSupported', httpStatus: 400 },
});

/** Names that differ in v0.3. */
export const V03_NAMES: Readonly<Record<number, string>> = Object.freeze({
  [-32007]: 'AuthenticatedExtendedCardNotConfigured',
});

/** The A2A name of a code for a protocol version, or undefined for an unknown code. */
export function a2aNameForCode(code: number, version: '1.0' | '0.3' = '1.0'): string | undefined {
  if (version === '0.3') {
    const legacy = V03_NAMES[code];
    if (legacy !== undefined) return legacy;
  }
  return ERROR_CODES[code]?.name;
}

/** The HTTP status a REST server uses for a code (500 for unknown server errors). */
export function httpStatusForCode(code: number): number {
  return ERROR_CODES[code]?.httpStatus ?? 500;
}

/** Known names by their letters and digits, lower-cased (`tasknotfound` → `TaskNotFound`). */
const BY_LETTERS: ReadonlyMap<string, string> = new Map(
  [...Object.values(ERROR_CODES).map((i) => i.name), ...Object.values(V03_NAMES)].map((name) => [name.toLowerCase(), name]),
);

/**
 * The A2A name for a `google.rpc.ErrorInfo` reason (`TASK_NOT_CANCELABLE` → `TaskNotCancelable`), or
 * undefined when the reason names no known error. The specification's reasons are the error type in
 * UPPER_SNAKE_CASE without `Error` (§11.6, the same in 1.0.0 and 1.0.1): `TASK_NOT_FOUND`,
 * `TASK_NOT_CANCELABLE`, `PUSH_NOTIFICATION_NOT_SUPPORTED`, `UNSUPPORTED_OPERATION`,
 * `CONTENT_TYPE_NOT_SUPPORTED`, `INVALID_AGENT_RESPONSE`, `EXTENDED_AGENT_CARD_NOT_CONFIGURED`,
 * `EXTENSION_SUPPORT_REQUIRED`, `VERSION_NOT_SUPPORTED`. Servers' variants are read alike: any case,
 * `_`/`-` or none, a trailing `_ERROR`, the spelling `CANCELLABLE`; the JSON-RPC standard names
 * (`INVALID_PARAMS`, which the official SDK sends) too.
 */
export function a2aNameForReason(reason: string): string | undefined {
  const letters = reason.toLowerCase().replace(/[^a-z0-9]/g, '').replace('cancellable', 'cancelable');
  return BY_LETTERS.get(letters) ?? (letters.endsWith('error') ? BY_LETTERS.get(letters.slice(0, -'error'.length)) : undefined);
}

/** True for the A2A-specific JSON-RPC codes (−32001 … −32099), which name an error more exactly than a reason can contradict. */
export function isA2ACode(code: number): boolean {
  return code <= -32001 && code >= -32099;
}
