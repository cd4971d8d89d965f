/**
 * Signed agent cards: the client trusts an agent's card only when its JWS signature verifies with a
 * key you trust (A2A spec 8.4). A card changed on the way — here an endpoint swapped for an attacker's
 * — fails `connect()` with kind `card`, before any message is sent.
 *
 * Run by `npm test` (test/examples); after `npm run build` also `npm run example examples/signed-cards.ts` (every supported Node).
 */
import canonicalize from 'canonicalize';
import { exportJWK, FlattenedSign, generateKeyPair } from 'jose';
import { A2AClient, isA2AClientError, type CardJwk } from 'a2a-resilient';
import { mockAgent, replyText, type WireObject } from 'a2a-resilient/mocks';

/** Runs both connections; returns what each ended with. */
export async function main(): Promise<{ verified: string; tampered: { kind: string; field: string | undefined; message: string } }> {
  // The agent's provider signs its card and publishes the public key (normally as a JWK Set).
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const trusted: CardJwk = { ...(await exportJWK(publicKey)), kid: 'ledger-2026', alg: 'ES256' };
  const signCard = async (card: WireObject): Promise<WireObject> => {
    const payload = new TextEncoder().encode(canonicalize(card)); // RFC 8785, the card without `signatures`
    const jws = await new FlattenedSign(payload).setProtectedHeader({ alg: 'ES256', typ: 'JOSE', kid: 'ledger-2026' }).sign(privateKey);
    return { ...card, signatures: [{ protected: jws.protected, signature: jws.signature }] };
  };

  const genuine = mockAgent({ name: 'ledger', version: '1.0', binding: 'JSONRPC', card: signCard });
  genuine.reply(replyText('balance: 42'));
  // The same card, signed, then one interface URL swapped on the way.
  const tampered = mockAgent({
    name: 'ledger',
    version: '1.0',
    binding: 'JSONRPC',
    card: async (card) => ({ ...(await signCard(card)), supportedInterfaces: [{ url: 'http://127.0.0.1:9/attacker', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] }),
  });
  const servers = [await genuine.listen(), await tampered.listen()];
  try {
    const options = { cardSignature: { keys: [trusted] } };
    const client = await A2AClient.connect(servers[0]?.url ?? '', options);
    const answer = await client.invoke('balance?');
    await client.close();

    const refused = await A2AClient.connect(servers[1]?.url ?? '', options).then(
      async (c) => {
        await c.close();
        throw new Error('a tampered card was accepted');
      },
      (error: unknown) => error,
    );
    if (!isA2AClientError(refused)) throw refused;
    return { verified: answer.at(-1)?.text ?? '', tampered: { kind: refused.kind, field: refused.field, message: refused.message } };
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await main(), null, 2));
}
