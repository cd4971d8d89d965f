import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A bad command line: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses `argv` strictly against `options`; `--help` is always accepted.
 * @throws UsageError for unknown options, missing values, or a wrong number of positionals.
 */
export function parseCommand<O extends Options>(
  argv: string[],
  options: O,
  positionals: { min: number; max: number },
): { values: Record<string, string | boolean | string[] | undefined>; positionals: string[]; help: boolean } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  const help = values.help === true;
  if (!help && (parsed.positionals.length < positionals.min || parsed.positionals.length > positionals.max)) {
    throw new UsageError(
      parsed.positionals.length < positionals.min ? 'missing arguments' : `unexpected argument: ${parsed.positionals.at(-1)}`,
    );
  }
  return { values, positionals: parsed.positionals, help };
}

/**
 * A non-negative integer option.
 * @throws UsageError when the value is not one.
 */
export function intOption(values: Record<string, string | boolean | string[] | undefined>, name: string): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new UsageError(`--${name} takes a whole number, got "${String(raw)}"`);
  return Number(raw);
}

/** `--verbose` and `--timeout <ms>`, shared by the commands that call an agent. */
export const CALL_OPTIONS = {
  verbose: { type: 'boolean' },
  timeout: { type: 'string' },
} as const;

/**
 * The call deadline from `--timeout <ms>` (or its older name `--timeout-total`).
 * @throws UsageError for a value that is not a whole number, or both names with different values.
 */
export function timeoutOption(values: Record<string, string | boolean | string[] | undefined>): number | undefined {
  const timeout = intOption(values, 'timeout');
  const total = values['timeout-total'] === undefined ? undefined : intOption(values, 'timeout-total');
  if (timeout !== undefined && total !== undefined && timeout !== total) throw new UsageError('--timeout and --timeout-total name the same deadline; give one');
  const ms = timeout ?? total;
  if (ms === 0) throw new UsageError('--timeout must be more than 0 ms');
  return ms;
}

/** The `--header` option: repeatable, `Name: value`. */
export const HEADER_OPTION = { header: { type: 'string', short: 'H', multiple: true } } as const;

/**
 * The `--header "Name: value"` options as a record, or `undefined` when none was given.
 * @throws UsageError for one without a name and a colon; the message never repeats the value (a secret).
 */
export function headerOptions(values: Record<string, string | boolean | string[] | undefined>): Record<string, string> | undefined {
  const raw = values.header;
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const [i, line] of raw.entries()) {
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header #${i + 1} is not "Name: value" (its value is not shown)`);
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** The `--binding` option: which of the card's wire bindings to insist on. */
export const BINDING_OPTION = { binding: { type: 'string' } } as const;

const BINDINGS = ['JSONRPC', 'HTTP+JSON', 'GRPC'] as const;

/**
 * The `--binding <JSONRPC|HTTP+JSON|GRPC>` option (any case; `REST` names HTTP+JSON), or `undefined`.
 * @throws UsageError for another value.
 */
export function bindingOption(values: Record<string, string | boolean | string[] | undefined>): (typeof BINDINGS)[number] | undefined {
  const raw = values.binding;
  if (raw === undefined) return undefined;
  const name = typeof raw === 'string' ? raw.toUpperCase() : '';
  const found = BINDINGS.find((b) => b === (name === 'REST' ? 'HTTP+JSON' : name));
  if (found === undefined) throw new UsageError(`--binding takes one of ${BINDINGS.join(', ')}, got "${String(raw)}"`);
  return found;
}
