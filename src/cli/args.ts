/** A bad command line: one line saying what is wrong, then a pointer to `--help`; exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** One option a command accepts: a flag (`boolean`) or an option taking a value (`string`). */
export interface OptionSpec {
  type: 'boolean' | 'string';
  /** A one-letter alias, e.g. `H` for `-H`. */
  short?: string;
  /** Whether the option may be given more than once (its values are collected). */
  multiple?: boolean;
}

type Options = Readonly<Record<string, OptionSpec>>;

/** What {@link parseCommand} read: values by long name (`string[]` for `multiple`), positionals in order. */
export interface ParsedCommand {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  help: boolean;
}

const HELP: OptionSpec = { type: 'boolean', short: 'h' };

/**
 * Parses `argv` strictly against `options`; `--help` / `-h` is always accepted. Our own parser, not
 * `node:util`'s `parseArgs`, so that every message is ours and names what to type instead: an
 * unknown option gets "did you mean", and an option that takes a value takes the next argument as
 * it is, even one starting with `-` (`--retries -1` is then refused for its value, not for its form).
 * `--` ends the options.
 * @param positionals the command's positional arguments, all required, by the names its usage gives
 * them (`['<url>', '<text>']`): a missing one is named in the error.
 * @throws UsageError for unknown options, missing values, a value given to a flag, a missing
 * positional (named: "missing <text>") or one too many.
 */
export function parseCommand(argv: readonly string[], options: Options, positionals: readonly string[]): ParsedCommand {
  const specs: Options = { ...options, help: HELP };
  const values: ParsedCommand['values'] = {};
  const found: string[] = [];
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (onlyPositionals || arg === '-' || !arg.startsWith('-')) {
      found.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    const long = arg.startsWith('--');
    const eq = long ? arg.indexOf('=') : -1;
    const written = eq < 0 ? arg : arg.slice(0, eq);
    const name = long ? written.slice(2) : shortName(specs, arg.slice(1, 2));
    const spec = name === undefined ? undefined : specs[name];
    if (name === undefined || spec === undefined) throw new UsageError(unknownOption(written.slice(0, long ? undefined : 2), specs));
    let value: string | boolean;
    if (spec.type === 'boolean') {
      if (eq >= 0 || (!long && arg.length > 2)) throw new UsageError(`--${name} takes no value`);
      value = true;
    } else if (eq >= 0) value = arg.slice(eq + 1);
    else if (!long && arg.length > 2) value = arg.slice(2);
    else {
      const next = argv[i + 1];
      if (next === undefined) throw new UsageError(`--${name} needs a value`);
      value = next;
      i++;
    }
    if (spec.multiple === true && typeof value === 'string') {
      const list = values[name];
      values[name] = Array.isArray(list) ? [...list, value] : [value];
    } else values[name] = value;
  }
  const help = values.help === true;
  if (!help && found.length < positionals.length) throw new UsageError(`missing ${listed(positionals.slice(found.length))}`);
  if (!help && found.length > positionals.length) throw new UsageError(`unexpected argument: ${found.at(-1) ?? ''}`);
  return { values, positionals: found, help };
}

/** `<text>`, `<url> and <text>`. */
function listed(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

function shortName(specs: Options, letter: string): string | undefined {
  return Object.keys(specs).find((name) => specs[name]?.short === letter);
}

/** "unknown option --strem; did you mean --stream?" (a suggestion only when one name is close). */
function unknownOption(written: string, specs: Options): string {
  const close = closestName(written.replace(/^-+/, ''), Object.keys(specs));
  return `unknown option ${written}${close !== undefined ? `; did you mean --${close}?` : ''}`;
}

/**
 * The closest of `names` to `typed` within a few edits (a typo, not another word), or `undefined`.
 */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  return names
    .map((name) => ({ name, distance: editDistance(typed, name) }))
    .filter((c) => c.distance <= Math.max(1, Math.floor(c.name.length / 3)))
    .sort((a, b) => a.distance - b.distance)[0]?.name;
}

/** Edit distance counting insertions, deletions, substitutions and swaps of neighbours (`sned` → `send` is 1). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => d[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
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

/**
 * An agent URL given on the command line, checked before anything is sent: the client would report
 * another scheme only as the HTTP client refusing the request.
 * @throws UsageError "<url> … is not an http(s) URL" for a string that does not parse as a URL or has
 * another scheme (shown without credentials, query or fragment).
 */
export function agentUrlArgument(raw: string): string {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url?.protocol === 'http:' || url?.protocol === 'https:') return raw;
  if (url !== undefined) {
    // Shown without what may be a secret.
    url.username = url.password = url.search = url.hash = '';
  }
  const shown = url === undefined ? JSON.stringify(raw) : url.href;
  throw new UsageError(`<url> ${shown} is not an http(s) URL (e.g. http://127.0.0.1:4000)`);
}

/**
 * The retry option from `--retries <n>` (retries after the first attempt; 0 turns them off), or
 * `undefined` for the client's default.
 * @throws UsageError when the value is not a whole number.
 */
export function retriesOption(values: Record<string, string | boolean | string[] | undefined>): false | { maxAttempts: number } | undefined {
  const retries = intOption(values, 'retries');
  if (retries === undefined) return undefined;
  return retries === 0 ? false : { maxAttempts: retries + 1 };
}

/** `--verbose`, `--timeout <ms>` (and its older name `--timeout-total`) and `--retries <n>`, shared by the commands that call an agent. */
export const CALL_OPTIONS = {
  verbose: { type: 'boolean' },
  timeout: { type: 'string' },
  'timeout-total': { type: 'string' },
  retries: { type: 'string' },
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
