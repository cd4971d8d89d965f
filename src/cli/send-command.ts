import { A2AClient } from '../client/a2a-client.js';
import type { ClientOptions } from '../client/options.js';
import { isTerminalError, type AgentEvent } from '../convert/agent-event.js';
import { HEADER_OPTION, headerOptions, intOption, parseCommand } from './args.js';
import { eventJson, formatEvent } from './format.js';
import { headerSecrets } from '../errors/secrets.js';
import { redactingIO, type CommandIO } from './io.js';

export const SEND_USAGE = `Usage: a2a-resilient send <url> <text> [options]

Sends <text> to the agent at <url> and prints its answer as events arrive. A failure is printed as
its structured fields (type, code, retryable, ...) and the exit code is 1.

Options:
  --stream               stream the answer (SendStreamingMessage / message/stream)
  --timeout-total <ms>   one deadline over every attempt and wait (default 120000)
  --retries <n>          retries after the first attempt (default 2; 0 turns retries off)
  --json                 print each event as one JSON line
  -H, --header <h>       a request header "Name: value" (repeatable), e.g. a token; its value
                         never appears in the output
  -h, --help             show this help`;

/** `a2a-resilient send`: exit 0 on an answer, 1 on a terminal error, 2 on bad arguments. */
export async function sendCommand(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals, help } = parseCommand(
    argv,
    {
      stream: { type: 'boolean' },
      json: { type: 'boolean' },
      'timeout-total': { type: 'string' },
      retries: { type: 'string' },
      ...HEADER_OPTION,
    },
    { min: 2, max: 2 },
  );
  if (help) {
    io.out(SEND_USAGE);
    return 0;
  }
  const totalMs = intOption(values, 'timeout-total');
  const retries = intOption(values, 'retries');
  const headers = headerOptions(values);
  // Nothing printed shows a header value, even one the agent echoes back.
  const shown = redactingIO(io, headerSecrets(headers ?? {}));
  const options: ClientOptions = {
    ...(headers !== undefined ? { headers } : {}),
    ...(totalMs !== undefined ? { timeouts: { totalMs } } : {}),
    ...(retries !== undefined ? { retry: retries === 0 ? false : { maxAttempts: retries + 1 } } : {}),
  };
  const [url = '', text = ''] = positionals;
  const print = (event: AgentEvent) => {
    if (values.json) shown.out(eventJson(event));
    else if (event.error) shown.err(formatEvent(event));
    else if (event.text || event.done) shown.out(formatEvent(event));
  };
  const client = await A2AClient.connect(url, options);
  try {
    let failed = false;
    if (values.stream) {
      for await (const event of client.stream(text)) {
        print(event);
        failed ||= isTerminalError(event);
      }
    } else {
      for (const event of await client.invoke(text)) {
        print(event);
        failed ||= isTerminalError(event);
      }
    }
    return failed ? 1 : 0;
  } finally {
    await client.close();
  }
}
