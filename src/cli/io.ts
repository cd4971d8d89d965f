import { redactSecrets } from '../errors/redact.js';

/** Where a command writes; tests pass their own. */
export interface CommandIO {
  out(line: string): void;
  err(line: string): void;
  /**
   * Whether stderr is a terminal: only then is a live progress line drawn (with {@link CommandIO.status}).
   * @default false
   */
  isTTY?: boolean;
  /** Writes raw text to stderr, no newline added (the progress line: `\r`, erase, redraw). */
  status?(text: string): void;
  /** Writes raw text to stdout, no newline added (a streamed answer's chunks); without it, whole lines go to {@link CommandIO.out}. */
  write?(text: string): void;
}

/** The process's stdout and stderr. */
export const processIO: CommandIO = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  isTTY: process.stderr.isTTY === true,
  status: (text) => process.stderr.write(text),
  write: (text) => process.stdout.write(text),
};

/**
 * `io` with the secrets (the values of the `--header`s given, see `headerSecrets`) replaced in every
 * line written: an agent that echoes a token back, in an error or in its answer, never gets it printed.
 */
export function redactingIO(io: CommandIO, secrets: readonly string[]): CommandIO {
  if (secrets.length === 0) return io;
  const status = io.status;
  const write = io.write;
  // Raw writes come in pieces (a stream's chunks): a secret split across two of them is held back
  // until it is whole, so it is replaced like one written at once.
  let held = '';
  const flush = (): void => {
    if (held !== '' && write) write(redactSecrets(held, secrets));
    held = '';
  };
  return {
    out: (line) => {
      flush();
      io.out(redactSecrets(line, secrets));
    },
    err: (line) => io.err(redactSecrets(line, secrets)),
    ...(io.isTTY !== undefined ? { isTTY: io.isTTY } : {}),
    ...(status ? { status: (text: string) => status(redactSecrets(text, secrets)) } : {}),
    ...(write
      ? {
          write: (text: string) => {
            const redacted = redactSecrets(held + text, secrets);
            const keep = secretPrefixAtEnd(redacted, secrets);
            held = redacted.slice(redacted.length - keep);
            const now = redacted.slice(0, redacted.length - keep);
            if (now !== '') write(now);
          },
        }
      : {}),
  };
}

/** The length of the longest end of `text` that could be the start of a secret (0 when none could). */
function secretPrefixAtEnd(text: string, secrets: readonly string[]): number {
  let longest = 0;
  for (const secret of secrets) {
    for (let n = Math.min(secret.length - 1, text.length); n > longest; n--) {
      if (text.endsWith(secret.slice(0, n))) {
        longest = n;
        break;
      }
    }
  }
  return longest;
}
