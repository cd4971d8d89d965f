// What the docs' `ts` blocks take as given: the reader's own values (a connected client, an agent's URL, their
// database…), declared once here instead of in every block. Compiled as a global declaration file beside the
// blocks, so a block that uses a name not declared here, or uses one of these the wrong way, fails to compile.
// Everything from the package itself is imported by the blocks, as a reader's code would.

/** The text of the declaration file. */
export const READER_NAMES = `
/** A client connected to one agent. */
declare const client: import('a2a-resilient').A2AClient;
/** Another client of the same agent (another process, another replica). */
declare const otherClient: import('a2a-resilient').A2AClient;
/** An agent's base URL. */
declare const agentUrl: string;
declare const url: string;
/** A task's and a context's ids, kept from earlier events. */
declare const taskId: string;
declare const contextId: string;
/** A bearer token, and a secret the webhook checks. */
declare const token: string;
declare const webhookSecret: string;
/** The reader's targets of a fan-out. */
declare const targets: import('a2a-resilient').FanOutTarget[];
/** The reader's own storage. */
declare const db: { save(row: { taskId: string }): Promise<void> };
declare const store: { get(key: string): Promise<string>; set(key: string, value: string): Promise<void> };
declare const key: string;
/** The reader's token source. */
declare const tokens: { get(options: { refresh: boolean }): Promise<string> };
/** The reader's handlers. */
declare function handle(error: import('a2a-resilient').ResponseError): void;
declare function write(text: string): void;
declare function log(event: import('a2a-resilient').ResilienceEvent): void;
declare function goodEnough(event: import('a2a-resilient').AgentEvent): boolean;
/** A signing key the reader trusts, and their key lookup. */
declare const publisherJwk: import('a2a-resilient').CardJwk;
declare function lookUp(kid: string | undefined): Promise<import('a2a-resilient').CardJwk | undefined>;
`;
