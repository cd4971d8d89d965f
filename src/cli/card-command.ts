import { A2AClient } from '../client/a2a-client.js';
import { parseCommand } from './args.js';
import type { CommandIO } from './io.js';

export const CARD_USAGE = `Usage: a2a-resilient card <url> [--json]

Fetches the agent card from <url> (/.well-known/agent-card.json, then /.well-known/agent.json),
validates it and prints the protocol version and binding this client would use, the skills and
the capabilities.

Options:
  --json      print the normalised card as JSON
  -h, --help  show this help`;

/** `a2a-resilient card <url>`: exit 0 on a valid card, 1 when it cannot be fetched or is invalid. */
export async function cardCommand(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals, help } = parseCommand(argv, { json: { type: 'boolean' } }, { min: 1, max: 1 });
  if (help) {
    io.out(CARD_USAGE);
    return 0;
  }
  const client = await A2AClient.connect(positionals[0] ?? '', { retry: false });
  try {
    const { card, protocol } = client;
    if (values.json) {
      io.out(JSON.stringify({ protocol, card: { ...card, raw: undefined } }, null, 2));
      return 0;
    }
    io.out(`${card.name}${card.version ? ` ${card.version}` : ''}`);
    if (card.description) io.out(`  ${card.description}`);
    io.out(`  speaks A2A ${protocol.version} over ${protocol.binding} at ${protocol.url}`);
    const caps = Object.entries(card.capabilities)
      .filter(([, v]) => typeof v === 'boolean')
      .map(([k, v]) => `${k}=${String(v)}`);
    io.out(`  capabilities: ${caps.length ? caps.join(' ') : '(none declared)'}`);
    io.out(`  interfaces:`);
    for (const i of card.interfaces) io.out(`    - ${i.version} ${i.binding} ${i.url}`);
    io.out(`  skills:${card.skills.length ? '' : ' (none)'}`);
    for (const s of card.skills) io.out(`    - ${s.id}: ${s.name}${s.description ? ` — ${s.description}` : ''}`);
    return 0;
  } finally {
    await client.close();
  }
}
