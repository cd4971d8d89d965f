import { readFile, rename, writeFile } from 'node:fs/promises';
import { readConversationInit, type ConversationSnapshot } from '../client/conversation-state.js';
import { isA2AClientError } from '../errors/a2a-client-error.js';
import { UsageError } from './args.js';

/**
 * The conversation state saved in `file` by `send --continue`, validated before any request is
 * made, or `undefined` when the file does not exist yet.
 * @throws UsageError when the file cannot be read, is not JSON or not a saved conversation (naming the field).
 */
export async function readConversationFile(file: string): Promise<ConversationSnapshot | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw new UsageError(`--continue ${file}: cannot read it (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    return readConversationInit(JSON.parse(text), file);
  } catch (error) {
    if (!(error instanceof SyntaxError) && !isA2AClientError(error)) throw error;
    throw new UsageError(`--continue ${file}: not a saved conversation (${error.message})`);
  }
}

/**
 * Saves the state to `file`, replacing it at once (written beside it, then renamed), so an
 * interrupted write never leaves half a file for the next turn.
 */
export async function writeConversationFile(file: string, state: ConversationSnapshot): Promise<void> {
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, `${JSON.stringify(state, null, 2)}\n`);
  await rename(partial, file);
}
