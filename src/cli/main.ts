#!/usr/bin/env node
// The `a2a-resilient` executable: runs the CLI with the process's arguments and sets the exit code.
// `--version` alone is answered before the CLI is loaded: it needs nothing but the package.json.
import { nodePackageVersion, VERSION_FLAGS } from '../platform/node-package-version.js';

const args = process.argv.slice(2);
if (args.length === 1 && VERSION_FLAGS.includes(args[0] as string)) {
  process.stdout.write(`${nodePackageVersion()}\n`);
} else {
  const { main } = await import('./cli.js');
  main(args).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`a2a-resilient: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 70;
    },
  );
}
