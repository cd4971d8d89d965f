import { isA2AClientError } from '../errors/a2a-client-error.js';
import { UsageError } from './args.js';
import { processIO, type CommandIO } from './io.js';
import { packageVersion } from '../util/package-version.js';

const USAGE = `Usage: a2a-resilient <command> [options]

A resilient client for A2A (Agent2Agent) agents.

Commands:
  card <url>          fetch, validate and describe an agent card
  send <url> <text>   send a message and print the answer (--stream to stream it)
  demo                run a coordinator against local mock agents and show what the SDK does

Options:
  --version           print the version and exit

Run "a2a-resilient <command> --help" for a command's options.`;

/** A command: what it runs and its usage text. */
interface Command {
  run: (argv: string[], io: CommandIO) => Promise<number>;
  usage: string;
}

// Each command (and the client it uses) is loaded only when it runs: `--version` and `--help` load none.
const COMMANDS: Record<string, () => Promise<Command>> = {
  card: async () => {
    const m = await import('./card-command.js');
    return { run: m.cardCommand, usage: m.CARD_USAGE };
  },
  send: async () => {
    const m = await import('./send-command.js');
    return { run: m.sendCommand, usage: m.SEND_USAGE };
  },
  demo: async () => {
    const m = await import('./demo-command.js');
    return { run: m.demoCommand, usage: m.DEMO_USAGE };
  },
};

/** Runs the CLI; resolves with the exit code (0 ok, 1 failure, 2 bad arguments). */
export async function main(argv: string[], io: CommandIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(packageVersion());
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    io.err(`a2a-resilient: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  const command = await load();
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`a2a-resilient ${name}: ${error.message}\n\n${command.usage}`);
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
