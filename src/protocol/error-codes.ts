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

/**
 * The A2A name for a `google.rpc.ErrorInfo` reason as REST servers send it (`TASK_NOT_FOUND` →
 * `TaskNotFound`), or undefined when the reason names no known error.
 */
export function a2aNameForReason(reason: string): string | undefined {
  const pascal = reason
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  const known = [...Object.values(ERROR_CODES).map((i) => i.name), ...Object.values(V03_NAMES)];
  return known.find((name) => name.toLowerCase() === pascal.toLowerCase());
}
