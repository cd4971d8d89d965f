/**
 * Tasks that outlive a call or a process: one coordinator process starts a long task and goes away
 * with only its task id saved; another picks the task up with `resume` (the state so far, then each
 * update once), `waitForTask` reads the finished task, and `tasks` lists what the agent holds.
 *
 * Run by `npm test` (test/examples); after `npm run build` also `npm run example examples/long-running-task.ts` (every supported Node).
 */
import { A2AClient, isTerminalError } from 'a2a-resilient';
import { mockAgent, stream } from 'a2a-resilient/mocks';

/** What each step saw. */
export interface LongRunningResult {
  /** What the first process read before it went away. */
  firstProcessSaw: string;
  /** The chunks the second process got from `resume`: what it had not seen, each once. */
  resumedChunks: string[];
  /** The final event's text: the whole answer (kept by default up to 1 MiB of text, see `accumulate`). */
  answer: string;
  /** `waitForTask`'s task state. */
  waited: string;
  /** How many tasks `tasks()` listed. */
  listed: number;
}

/** Runs both "processes" against one mock agent. */
export async function main(): Promise<LongRunningResult> {
  const agent = mockAgent({ name: 'reports', version: '1.0', binding: 'JSONRPC' });
  agent.on('sendStreamingMessage', stream(
    [{ status: 'working' }, { artifact: 'Q3 revenue: 4.2M. ' }, { artifact: 'Costs fell 3%. ', append: true }, { artifact: 'Outlook: stable.', append: true }, { status: 'completed' }],
    { gapMs: 50 },
  ));
  const server = await agent.listen();

  // Process 1: starts the report, keeps the task id (in a database, a queue message, …), then exits.
  let taskId: string | undefined;
  let firstProcessSaw = '';
  const first = await A2AClient.connect(server.url);
  try {
    for await (const event of first.stream('write the Q3 report')) {
      taskId ??= event.taskId;
      if (event.object === 'chat.completion.chunk') {
        firstProcessSaw += event.text ?? '';
        break; // the process goes away: the agent keeps working on the task
      }
    }
  } finally {
    await first.close();
  }
  if (taskId === undefined) throw new Error('the agent gave no task id');

  // Process 2: knows only the task id.
  const second = await A2AClient.connect(server.url);
  try {
    const resumedChunks: string[] = [];
    let answer = '';
    for await (const event of second.resume(taskId, { timeouts: { totalMs: 60_000 } })) {
      if (isTerminalError(event)) throw new Error(`the task failed: ${event.error?.message ?? ''}`);
      if (event.object === 'chat.completion.chunk') resumedChunks.push(event.text ?? '');
      if (event.done) answer = event.text ?? '';
    }
    // Or just wait for the outcome (terminal, or waiting for input), within a deadline.
    const task = await second.waitForTask(taskId, { timeouts: { totalMs: 60_000 } });
    // Every task the agent lists, page after page.
    let listed = 0;
    for await (const listedTask of second.tasks({ pageSize: 50 })) if (listedTask.id === taskId) listed++;
    return { firstProcessSaw, resumedChunks, answer, waited: task.status.state, listed };
  } finally {
    await second.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await main(), null, 2));
}
