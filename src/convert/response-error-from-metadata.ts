import type { ResponseError } from '../errors/a2a-client-error.js';
import type { Metadata, TaskState } from '../protocol/model.js';

/**
 * The structured-error fields an agent may put in a failed task's metadata (`object_type`, `error_type`,
 * `error_code`, `error_message`, `error_param`, `task_state`, `llm_response_id`), read once.
 */
export interface ErrorMetadata {
  objectType?: string;
  errorType?: string;
  /** Numeric codes already turned into decimal strings. */
  errorCode?: string;
  errorMessage?: string;
  errorParam?: string;
  /** `task_state`, only when it names a known {@link TaskState}. */
  taskState?: TaskState;
  llmResponseId?: string;
}

const STATES: readonly TaskState[] = [
  'submitted', 'working', 'input-required', 'auth-required', 'completed', 'failed', 'canceled', 'rejected', 'unknown',
];

/** A string, or a finite number as its decimal string; anything else (and `''`) is ignored. */
function stringField(metadata: Metadata, key: string): string | undefined {
  const value = metadata[key];
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function taskStateOf(value: string | undefined): TaskState | undefined {
  return value === undefined ? undefined : STATES.find((state) => state === value);
}

/** What metadata without any of the fields reads as (shared: never modified). */
const NO_FIELDS: Readonly<ErrorMetadata> = Object.freeze({});

/**
 * Reads `object_type`, `error_type`, `error_code`, `error_message`, `error_param`, `task_state` and
 * `llm_response_id`. Numeric values become decimal strings (`40401` → `"40401"`); values of any other
 * type are ignored. Never throws.
 */
export function readErrorMetadata(metadata: Metadata | undefined): Readonly<ErrorMetadata> {
  if (metadata === undefined || metadata === null || typeof metadata !== 'object') return NO_FIELDS;
  const out: ErrorMetadata = {};
  const objectType = stringField(metadata, 'object_type');
  if (objectType !== undefined) out.objectType = objectType;
  const errorType = stringField(metadata, 'error_type');
  if (errorType !== undefined) out.errorType = errorType;
  const errorCode = stringField(metadata, 'error_code');
  if (errorCode !== undefined) out.errorCode = errorCode;
  const errorMessage = stringField(metadata, 'error_message');
  if (errorMessage !== undefined) out.errorMessage = errorMessage;
  const errorParam = stringField(metadata, 'error_param');
  if (errorParam !== undefined) out.errorParam = errorParam;
  const taskState = taskStateOf(stringField(metadata, 'task_state'));
  if (taskState !== undefined) out.taskState = taskState;
  const llmResponseId = stringField(metadata, 'llm_response_id');
  if (llmResponseId !== undefined) out.llmResponseId = llmResponseId;
  return out;
}

/**
 * True when the metadata carries a structured error: `object_type === 'error'`, or any of
 * `error_type`, `error_code`, `error_message`, `error_param` is set.
 */
export function hasStructuredError(fields: ErrorMetadata): boolean {
  return (
    fields.objectType === 'error' ||
    fields.errorType !== undefined ||
    fields.errorCode !== undefined ||
    fields.errorMessage !== undefined ||
    fields.errorParam !== undefined
  );
}

/**
 * A failure the agent reported (`source: 'agent'`) without structured fields: a task that ended
 * `failed` / `rejected` / `canceled`. Not retryable (the agent answered), not ambiguous (it said what
 * happened).
 */
export function agentFailure(message: string, type = 'flow_error'): ResponseError {
  return { type, source: 'agent', message, retryable: false, ambiguous: false };
}

/**
 * THE one rule rebuilding a {@link ResponseError} from metadata. Returns `undefined` when no
 * structured error is present. `source` is `agent`; `type` is `error_type` (the agent's own, any
 * string), else `defaultType`; `message` is `error_message`, else `fallbackText`; `code` and `param`
 * are kept as strings; `retryable` and `ambiguous` are `false`. Never throws.
 *
 * @example responseErrorFromMetadata({ error_code: 40401 }, 'not found', 'flow_error')
 * // → { type: 'flow_error', source: 'agent', message: 'not found', code: '40401', retryable: false, ambiguous: false }
 */
export function responseErrorFromMetadata(
  metadata: Metadata | undefined,
  fallbackText: string,
  defaultType: string,
): ResponseError | undefined {
  const fields = readErrorMetadata(metadata);
  if (!hasStructuredError(fields)) return undefined;
  const error = agentFailure(fields.errorMessage ?? fallbackText, fields.errorType ?? defaultType);
  if (fields.errorCode !== undefined) error.code = fields.errorCode;
  if (fields.errorParam !== undefined) error.param = fields.errorParam;
  return error;
}

/**
 * Merges outer metadata (task / update `metadata`) with its compatibility mirror
 * (`status.message.metadata`) key by key: the outer value wins wherever it is set (not
 * `undefined`/`null`). Returns `undefined` when both are absent. Never throws.
 */
export function mergeErrorMetadata(outer: Metadata | undefined, mirror: Metadata | undefined): Metadata | undefined {
  if (outer === undefined && mirror === undefined) return undefined;
  const merged: Metadata = { ...mirror };
  if (outer !== undefined) {
    for (const [key, value] of Object.entries(outer)) {
      if (value !== undefined && value !== null) merged[key] = value;
    }
  }
  return merged;
}
