/**
 * Talking to an agent over gRPC: the card lists a `GRPC` interface (`host:port`), the client
 * negotiates it like the HTTP bindings (or insists with `protocol: { binding: 'GRPC' }`), and every
 * guarantee is the same — one deadline the agent sees as the gRPC deadline, retries only when safe,
 * statuses as typed errors (`kind: 'http'`, `grpcStatus`, `a2aName`).
 *
 * Needs the optional peers: `npm install @grpc/grpc-js @bufbuild/protobuf`.
 * Run by `npm test` (test/examples) against the official SDK's gRPC server; after `npm run build`
 * also `npm run example examples/grpc-agent.ts http://agent.example.com` (the URL that serves the card; every supported Node).
 */
import { A2AClient, isA2AClientError } from 'a2a-resilient';

/** What the example saw: the binding, a streamed answer, and a typed gRPC error. */
export interface GrpcExampleResult {
  binding: string;
  streamed: string;
  notFound: { kind: string; grpcStatus?: string | undefined; a2aName?: string | undefined };
}

/** Streams one answer from the agent whose card is at `cardUrl`, then asks for a task that does not exist. */
export async function main(cardUrl: string): Promise<GrpcExampleResult> {
  const client = await A2AClient.connect(cardUrl, {
    protocol: { binding: 'GRPC' },
    timeouts: { totalMs: 10_000, streamIdleMs: 5_000 },
    // The channel: keepalive pings on idle connections (TLS comes from `tls`, `grpc.insecure` allows plaintext to a remote host).
    grpc: { keepalive: { timeMs: 60_000, timeoutMs: 10_000 } },
  });
  try {
    let streamed = '';
    for await (const event of client.stream('stream 3')) {
      if (event.done && event.text !== undefined) streamed = event.text;
    }
    const notFound = await client.getTask({ id: 'no-such-task' }).then(
      () => ({ kind: 'none' }),
      (error: unknown) => (isA2AClientError(error) ? { kind: error.kind, grpcStatus: error.grpcStatus, a2aName: error.a2aName } : { kind: 'unexpected' }),
    );
    return { binding: client.protocol.binding, streamed, notFound };
  } finally {
    await client.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await main(process.argv[2] ?? 'http://127.0.0.1:4000'), null, 2));
}
