/**
 * A provider converter: "Acme" agents report failures as `{ errorCode, errorMessage }` in task
 * metadata instead of the standard `error_code` / `error_message`. The converter renames those keys
 * and lets the default converter apply the one rule, so business code keeps branching on
 * `event.error.code` whichever agent answered.
 *
 * Run by `npm test` (test/examples); after `npm run build` also `npm run example examples/custom-converter.ts` (every supported Node).
 */
import {
  ConverterRegistry,
  defaultConverter,
  isTerminalError,
  responseErrorFromMetadata,
  type AgentCard,
  type AgentEvent,
  type EventConverter,
  type Metadata,
  type SendResult,
} from 'a2a-resilient';

/** Acme's keys → the standard ones; everything else is kept. */
function standardise(metadata: Metadata | undefined): Metadata | undefined {
  if (metadata === undefined) return undefined;
  const { errorCode, errorMessage, ...rest } = metadata;
  if (errorCode !== undefined) rest.error_code = errorCode;
  if (errorMessage !== undefined) rest.error_message = errorMessage;
  return rest;
}

/** Wraps the default converter; only the metadata naming differs. */
export const acmeConverter: EventConverter = {
  name: 'acme',
  convert: (result, ctx) => defaultConverter.convert({ ...result, metadata: standardise(result.metadata) }, ctx),
  convertStream: (item, ctx) => defaultConverter.convertStream({ ...item, metadata: standardise(item.metadata) }, ctx),
  end: (ctx) => defaultConverter.end?.(ctx) ?? [],
};

/** Registers the converter for Acme agents, converts a failed Acme task, and returns what a caller sees. */
export function main(): { converter: string; events: AgentEvent[]; terminal: boolean; code: string | undefined } {
  const registry = new ConverterRegistry().register(acmeConverter, {
    match: (card) => card.provider?.organization === 'Acme',
  });
  const card: AgentCard = {
    name: 'acme-orders',
    provider: { organization: 'Acme' },
    interfaces: [{ url: 'http://127.0.0.1:4000/', binding: 'JSONRPC', version: '1.0' }],
    capabilities: { streaming: true },
    skills: [],
    raw: {},
  };
  const converter = registry.select(card);

  const failedTask: SendResult = {
    kind: 'task',
    id: 'task-7',
    contextId: 'ctx-7',
    status: {
      state: 'failed',
      message: { kind: 'message', messageId: 'm-7', role: 'agent', parts: [{ kind: 'text', text: 'Sorry, that item is gone.' }] },
    },
    metadata: { errorCode: 40901, errorMessage: 'inventory unavailable' },
  };
  const events = converter.convert(failedTask, { agent: card.name, card, state: {} });
  const last = events.at(-1);
  // The same ResponseError a standard agent would produce:
  const expected = responseErrorFromMetadata({ error_code: 40901, error_message: 'inventory unavailable' }, '', 'flow_error');
  if (last?.error?.code !== expected?.code) throw new Error('the provider converter should match the standard rule');
  return { converter: converter.name, events, terminal: last !== undefined && isTerminalError(last), code: last?.error?.code };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(main(), null, 2));
}
