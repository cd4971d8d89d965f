/** Random A2A v1.0 ProtoJSON objects that the v1.0 schema accepts, for property tests of decoders and encoders. */
import fc from 'fast-check';

const STATES = ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_REJECTED', 'TASK_STATE_AUTH_REQUIRED'];
const id = fc.string({ minLength: 1, maxLength: 12 });
const metadata = fc.option(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), { nil: undefined });
const part = fc.oneof(
  fc.record({ text: fc.string(), mediaType: fc.option(fc.constantFrom('text/plain', 'text/markdown'), { nil: undefined }), metadata }, { requiredKeys: ['text'] }),
  fc.record({ data: fc.jsonValue({ maxDepth: 2 }), mediaType: fc.constant('application/json') }),
  fc.record({ url: fc.webUrl(), filename: fc.string({ minLength: 1, maxLength: 8 }), mediaType: fc.constant('image/png') }),
  fc.record({ raw: fc.uint8Array({ maxLength: 16 }).map((b) => Buffer.from(b).toString('base64')), filename: fc.string({ minLength: 1, maxLength: 8 }) }),
);
const message = fc.record({ messageId: id, role: fc.constantFrom('ROLE_USER', 'ROLE_AGENT'), parts: fc.array(part, { maxLength: 3 }), contextId: id, metadata }, { requiredKeys: ['messageId', 'role', 'parts'] });
const artifactArb = fc.record({ artifactId: id, name: fc.string(), parts: fc.array(part, { minLength: 1, maxLength: 3 }), metadata }, { requiredKeys: ['artifactId', 'parts'] });
/** A random v1.0 Task as an agent writes it (ProtoJSON; text and data parts carry no filename). */
export const v1TaskArb = fc.record(
  { id, contextId: id, status: fc.record({ state: fc.constantFrom(...STATES), message, timestamp: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()) }, { requiredKeys: ['state'] }), artifacts: fc.array(artifactArb, { maxLength: 2 }), history: fc.array(message, { maxLength: 2 }), metadata },
  { requiredKeys: ['id', 'contextId', 'status'] },
);

/** A random v1.0 `StreamResponse`: a task, a message, a status update or an artifact update. */
export const v1StreamResponseArb = fc.oneof(
  v1TaskArb.map((task) => ({ task })),
  message.map((m) => ({ message: m })),
  fc.record({ taskId: id, contextId: id, status: fc.record({ state: fc.constantFrom(...STATES), message }, { requiredKeys: ['state'] }), metadata }, { requiredKeys: ['taskId', 'contextId', 'status'] }).map((statusUpdate) => ({ statusUpdate })),
  fc.record({ taskId: id, contextId: id, artifact: artifactArb, append: fc.boolean(), lastChunk: fc.boolean(), metadata }, { requiredKeys: ['taskId', 'contextId', 'artifact'] }).map((artifactUpdate) => ({ artifactUpdate })),
);
