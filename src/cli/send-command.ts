import { A2AClient } from '../client/a2a-client.js';
import type { ConversationSnapshot } from '../client/conversation-state.js';
import type { ClientOptions } from '../client/options.js';
import { isTerminalError, type AgentEvent } from '../convert/agent-event.js';
import { readConversationFile, writeConversationFile } from './conversation-file.js';
import { agentUrlArgument, BINDING_OPTION, bindingOption, CALL_OPTIONS, HEADER_OPTION, headerOptions, parseCommand, retriesOption, timeoutOption } from './args.js';
import { eventJson, formatEvent, formatResilienceEvent, hiddenHeaders } from './format.js';
import { headerSecrets } from '../errors/secrets.js';
import { redactingIO, type CommandIO } from './io.js';
import { Progress } from './progress.js';
import { StreamPrinter } from './stream-printer.js';
import { runThenClose } from '../util/clean-up-after.js';
import { namedDeadline } from '../transport/deadline-name.js';

export const SEND_USAGE = `Usage: a2a-resilient send <url> <text> [options]

Sends <text> to the agent at <url> and prints its answer as events arrive. A failure is printed as
its structured fields (type, code, retryable, ...) and the exit code is 1.

Options:
  --stream               stream the answer (SendStreamingMessage / message/stream); on a terminal,
                         stderr shows the time elapsed and the events so far
  --timeout <ms>         one deadline over every attempt and wait (default 120000; also --timeout-total)
  --retries <n>          retries after the first attempt (default 2; 0 turns retries off)
  --json                 print each event as one JSON line (stdout carries nothing else)
  --binding <b>          insist on one of the card's bindings: JSONRPC, HTTP+JSON (REST) or GRPC
                         (default: the card's order; gRPC needs @grpc/grpc-js and @bufbuild/protobuf)
  --continue <file>      a conversation: the turn goes to the context and open task saved in <file>
                         (none yet: a new conversation), and the new state is saved there after it
  --verbose              print what the client does on stderr: the agent found, retries with their
                         reasons and waits, breaker changes, resubscribes (header values hidden)
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
      continue: { type: 'string' },
      ...CALL_OPTIONS,
      ...HEADER_OPTION,
      ...BINDING_OPTION,
    },
    ['<url>', '<text>'],
  );
  if (help) {
    io.out(SEND_USAGE);
    return 0;
  }
  const totalMs = timeoutOption(values);
  const retry = retriesOption(values);
  const headers = headerOptions(values);
  const binding = bindingOption(values);
  // Nothing printed shows a header value, even one the agent echoes back.
  const shown = redactingIO(io, headerSecrets(headers ?? {}));
  const verbose = values.verbose === true;
  const options: ClientOptions = {
    ...(headers !== undefined ? { headers } : {}),
    ...(binding !== undefined ? { protocol: { binding } } : {}),
    ...(totalMs !== undefined ? { timeouts: namedDeadline({ totalMs }, '--timeout') } : {}),
    ...(retry !== undefined ? { retry } : {}),
    ...(verbose ? { onEvent: (event) => shown.err(formatResilienceEvent(event)) } : {}),
  };
  const [rawUrl = '', text = ''] = positionals;
  const url = agentUrlArgument(rawUrl);
  const file = typeof values.continue === 'string' ? values.continue : undefined;
  const saved = file === undefined ? undefined : await readConversationFile(file);
  if (verbose) shown.err(`· connecting to ${url} (headers: ${hiddenHeaders(headers)})`);
  const client = await A2AClient.connect(url, options);
  return runThenClose(async () => {
    if (verbose) shown.err(`· agent "${client.name}": A2A ${client.protocol.version} over ${client.protocol.binding} at ${client.protocol.url}`);
    const chat = file === undefined ? undefined : client.conversation(saved);
    const turn = chat ?? client;
    let failed = false;
    if (values.stream) {
      const progress = new Progress(shown, client.name);
      // The answer's own text shows progress once it flows: the progress line gives way to it.
      const printer = new StreamPrinter(progress.io, () => progress.stop());
      try {
        for await (const event of turn.stream(text)) {
          progress.event();
          if (values.json === true) progress.io.out(eventJson(event));
          else printer.event(event);
          failed ||= isTerminalError(event);
        }
      } finally {
        printer.end();
        progress.stop();
      }
    } else {
      for (const event of await turn.invoke(text)) {
        print(shown, event, values.json === true);
        failed ||= isTerminalError(event);
      }
    }
    if (chat && file !== undefined) {
      await writeConversationFile(file, chat.toJSON());
      if (verbose) shown.err(`· conversation saved to ${file}: ${describe(chat.toJSON())}`);
    }
    return failed ? 1 : 0;
  }, () => client.close());
}

function describe(state: ConversationSnapshot): string {
  const task = state.lastTaskId === undefined ? 'no task yet' : `task ${state.lastTaskId} ${state.state ?? ''}`.trim();
  return `context ${state.contextId ?? '(none yet)'}, ${task}`;
}

/** One event: a JSON line (`--json`), an error on stderr, or text on stdout. */
function print(io: CommandIO, event: AgentEvent, json: boolean): void {
  if (json) io.out(eventJson(event));
  else if (event.error) io.err(formatEvent(event));
  else if (event.text || event.done) io.out(formatEvent(event));
}
