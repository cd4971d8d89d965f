/** Where a command writes; tests pass their own. */
export interface CommandIO {
  out(line: string): void;
  err(line: string): void;
}

/** The process's stdout and stderr. */
export const processIO: CommandIO = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};
