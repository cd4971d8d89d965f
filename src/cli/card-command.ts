import { A2AClient } from '../client/a2a-client.js';
import { agentUrlArgument, CALL_OPTIONS, HEADER_OPTION, headerOptions, parseCommand, retriesOption, timeoutOption } from './args.js';
import { formatResilienceEvent, hiddenHeaders } from './format.js';
import { headerSecrets } from '../errors/secrets.js';
import { redactingIO, type CommandIO } from './io.js';
import { runThenClose } from '../util/clean-up-after.js';
import { namedDeadline } from '../transport/deadline-name.js';

export const CARD_USAGE = `Usage: a2a-resilient card <url> [options]

Fetches the agent card from <url> (/.well-known/agent-card.json, then /.well-known/agent.json),
validates it and prints the protocol version and binding this client would use, the skills and
the capabilities.

Options:
  --json      print the normalised card as JSON
  --timeout <ms>
              one deadline over every card URL, attempt and wait (default 120000)
  --retries <n>
              retries after the first attempt of a card fetch refused, timed out, 5xx or 429
              (default 2; 0 turns retries off)
  --verbose   print what the client does on stderr (header values hidden)
  -H, --header <h>
              a request header "Name: value" (repeatable), e.g. a token; its value never appears
              in the output
  -h, --help  show this help`;

/** `a2a-resilient card <url>`: exit 0 on a valid card, 1 when it cannot be fetched or is invalid, 2 on bad arguments. */
export async function cardCommand(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals, help } = parseCommand(argv, { json: { type: 'boolean' }, ...CALL_OPTIONS, ...HEADER_OPTION }, ['<url>']);
  if (help) {
    io.out(CARD_USAGE);
    return 0;
  }
  const headers = headerOptions(values);
  // Nothing printed shows a header value, even one the agent echoes back.
  const shown = redactingIO(io, headerSecrets(headers ?? {}));
  const totalMs = timeoutOption(values);
  const retry = retriesOption(values);
  const url = agentUrlArgument(positionals[0] ?? '');
  if (values.verbose === true) shown.err(`· fetching the agent card of ${url} (headers: ${hiddenHeaders(headers)})`);
  // Retried like `send`: a card fetch is a read, safe to repeat.
  const client = await A2AClient.connect(url, {
    ...(retry !== undefined ? { retry } : {}),
    ...(headers !== undefined ? { headers } : {}),
    ...(totalMs !== undefined ? { timeouts: namedDeadline({ totalMs }, '--timeout') } : {}),
    ...(values.verbose === true ? { onEvent: (event) => shown.err(formatResilienceEvent(event)) } : {}),
  });
  return runThenClose(async () => {
    const { card, protocol } = client;
    if (values.json) {
      shown.out(JSON.stringify({ protocol, card: { ...card, raw: undefined } }, null, 2));
      return 0;
    }
    shown.out(`${card.name}${card.version ? ` ${card.version}` : ''}`);
    if (card.description) shown.out(`  ${card.description}`);
    shown.out(`  speaks A2A ${protocol.version} over ${protocol.binding} at ${protocol.url}`);
    const schemes = Object.entries(card.securitySchemes ?? {}).map(([name, s]) => `${name} (${s.type === 'http' ? `http ${s.scheme}` : s.type === 'apiKey' ? `apiKey in ${s.in} "${s.name}"` : s.type})`);
    if (schemes.length > 0) shown.out(`  authentication: ${schemes.join(', ')}`);
    if (card.signatures) shown.out(`  signed: ${card.signatures.length} signature${card.signatures.length === 1 ? '' : 's'} (not verified by this command)`);
    const caps = Object.entries(card.capabilities)
      .filter(([, v]) => typeof v === 'boolean')
      .map(([k, v]) => `${k}=${String(v)}`);
    shown.out(`  capabilities: ${caps.length ? caps.join(' ') : '(none declared)'}`);
    shown.out(`  interfaces:`);
    for (const i of card.interfaces) shown.out(`    - ${i.version} ${i.binding} ${i.url}`);
    shown.out(`  skills:${card.skills.length ? '' : ' (none)'}`);
    for (const s of card.skills) shown.out(`    - ${s.id}: ${s.name}${s.description ? ` — ${s.description}` : ''}`);
    return 0;
  }, () => client.close());
}
