import { isA2AClientError } from '../errors/a2a-client-error.js';
import { closestName, UsageError } from './args.js';
import { cardCommand } from './card-command.js';
import { demoCommand } from './demo-command.js';
import { processIO, type CommandIO } from './io.js';
import { sendCommand } from './send-command.js';
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

const COMMANDS: Record<string, { run: (argv: string[], io: CommandIO) => Promise<number> }> = {
  card: { run: cardCommand },
  send: { run: sendCommand },
  demo: { run: demoCommand },
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
  const command = COMMANDS[name];
  if (!command) {
    const close = closestName(name, Object.keys(COMMANDS));
    io.err(`a2a-resilient: unknown command "${name}"${close !== undefined ? `; did you mean "${close}"?` : ''}`);
    io.err('Run "a2a-resilient --help" for the commands.');
    return 2;
  }
  try {
    return await command.run(rest, io);
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
