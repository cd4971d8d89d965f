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
}

/** The process's stdout and stderr. */
export const processIO: CommandIO = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  isTTY: process.stderr.isTTY === true,
  status: (text) => process.stderr.write(text),
};

/**
 * `io` with the secrets (the values of the `--header`s given, see `headerSecrets`) replaced in every
 * line written: an agent that echoes a token back, in an error or in its answer, never gets it printed.
 */
export function redactingIO(io: CommandIO, secrets: readonly string[]): CommandIO {
  if (secrets.length === 0) return io;
  const status = io.status;
  return {
    out: (line) => io.out(redactSecrets(line, secrets)),
    err: (line) => io.err(redactSecrets(line, secrets)),
    ...(io.isTTY !== undefined ? { isTTY: io.isTTY } : {}),
    ...(status ? { status: (text: string) => status(redactSecrets(text, secrets)) } : {}),
  };
}
