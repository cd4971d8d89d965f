import { isA2AClientError } from '../errors/a2a-client-error.js';
import { closestName, UsageError } from './args.js';
import { processIO, type CommandIO } from './io.js';
import { packageVersion } from '../util/package-version.js';
import { VERSION_FLAGS } from '../platform/node-package-version.js';

const USAGE = `Usage: a2a-resilient <command> [options]

A resilient client for A2A (Agent2Agent) agents.

Commands:
  card <url>          fetch, validate and describe an agent card
  send <url> <text>   send a message and print the answer (--stream to stream it)
  demo                run a coordinator against local mock agents and show what the SDK does

Options:
  --version           print the version and exit

Run "a2a-resilient <command> --help" for a command's options.`;

/** Runs a command; resolves with its exit code. */
type Run = (argv: string[], io: CommandIO) => Promise<number>;

// Each command (and the client it uses) is loaded only when it runs: `--version` and `--help` load none.
const COMMANDS: Record<string, () => Promise<Run>> = {
  card: async () => (await import('./card-command.js')).cardCommand,
  send: async () => (await import('./send-command.js')).sendCommand,
  demo: async () => (await import('./demo-command.js')).demoCommand,
};

/** Runs the CLI; resolves with the exit code (0 ok, 1 failure, 2 bad arguments). */
export async function main(argv: string[], io: CommandIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (VERSION_FLAGS.includes(name)) {
    io.out(packageVersion());
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    const close = closestName(name, Object.keys(COMMANDS));
    io.err(`a2a-resilient: unknown command "${name}"${close !== undefined ? `; did you mean "${close}"?` : ''}`);
    io.err('Run "a2a-resilient --help" for the commands.');
    return 2;
  }
  const run = await load();
  try {
    return await run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      // One line on what is wrong and where the options are; the whole usage only on --help.
      io.err(`a2a-resilient ${name}: ${error.message}`);
      io.err(`Run "a2a-resilient ${name} --help" for its options.`);
      return 2;
    }
    if (isA2AClientError(error)) {
      io.err(`error: ${error.message}`);
      const fields = [`kind=${error.kind}`];
      if (error.field) fields.push(`field=${error.field}`);
      if (error.status !== undefined) fields.push(`status=${error.status}`);
      if (error.code !== undefined) fields.push(`code=${error.code}`);
      io.err(`  ${fields.join(' ')}`);
      return 1;
    }
    throw error;
  }
}
