/**
 * Authentication: what the card asks for, a headers function that refreshes an expired token when
 * the agent answers 401 with a challenge, and a task that stops in `auth-required` — not an error:
 * the caller gets the user's consent and continues the same task.
 *
 * Run by `npm test` (test/examples); after `npm run build` also `npm run example examples/authentication.ts` (every supported Node).
 */
import { A2AClient, isTerminalError, type HeadersContext, type SecurityScheme } from 'a2a-resilient';
import { httpError, mockAgent, replyTask } from 'a2a-resilient/mocks';

/** A token cache: the token it has, and a refresh (here: a new fake token). */
class Tokens {
  current = 'expired-0001';
  refreshes = 0;
  refresh(): string {
    this.refreshes++;
    this.current = `fresh-${String(this.refreshes).padStart(4, '0')}`;
    return this.current;
  }
}

/** Runs the conversation; returns what each step showed. */
export async function main(): Promise<{
  scheme: SecurityScheme | undefined;
  refreshes: number;
  interrupted: { state: string | undefined; text: string | undefined; terminal: boolean };
  answer: string | undefined;
}> {
  // A mock payroll agent whose card declares bearer tokens; our cached token has expired.
  const agent = mockAgent({
    name: 'payroll',
    version: '1.0',
    binding: 'JSONRPC',
    card: (card) => ({
      ...card,
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } } },
      securityRequirements: [{ schemes: { bearer: { list: ['payroll:read'] } } }],
    }),
  });
  agent.reply(
    httpError(401, { headers: { 'www-authenticate': 'Bearer realm="payroll", error="invalid_token"' } }),
    replyTask({ state: 'auth-required', statusMessage: 'Please allow access to your bank account: https://bank.example/consent/42' }),
    replyTask({ state: 'completed', artifacts: ['Your March payslip is on its way.'] }),
  );
  const server = await agent.listen();

  const tokens = new Tokens();
  // Called before every attempt; called again with `challenge` when the agent refuses the token.
  const headers = ({ challenge }: HeadersContext) => ({ authorization: `Bearer ${challenge ? tokens.refresh() : tokens.current}` });
  const client = await A2AClient.connect(server.url, { headers });
  try {
    // 1. The card says how to authenticate.
    const scheme = client.card.securitySchemes?.['bearer'];

    // 2. The first send is refused (expired token), answered and repeated once — then the agent needs
    //    the user's consent: the task waits in `auth-required`. That event is not a terminal error.
    const first = await client.invoke('Send me my March payslip');
    const waiting = first.find((e) => e.state === 'auth-required');
    const interrupted = { state: waiting?.state, text: waiting?.text, terminal: waiting ? isTerminalError(waiting) : true };

    // 3. The user consented (here: at once); the same task continues.
    let answer: string | undefined;
    if (waiting) {
      const second = await client.invoke({ parts: [{ kind: 'text', text: 'Consent given' }], ...(waiting.taskId ? { taskId: waiting.taskId } : {}), ...(waiting.contextId ? { contextId: waiting.contextId } : {}) });
      answer = second.find((e) => e.done && !e.error)?.text;
    }
    return { scheme, refreshes: tokens.refreshes, interrupted, answer };
  } finally {
    await client.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await main(), null, 2));
}
