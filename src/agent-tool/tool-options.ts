/** Options of `a2aTool` (both `a2a-resilient/ai-sdk` and `a2a-resilient/langchain`). */
export interface A2AToolOptions {
  /**
   * The tool's name as the model sees it. Used as given: keep it to `[A-Za-z0-9_-]{1,64}`, which
   * model providers require.
   * @default the agent card's name made safe (`Billing Agent (EU)` → `Billing_Agent_EU`)
   */
  name?: string;
  /**
   * What the model reads to decide when to call the agent.
   * @default the card's description and its skills, at most 1024 characters
   */
  description?: string;
  /**
   * Keep one A2A conversation across the tool's calls: each call continues the context (`contextId`)
   * of the previous answers, and answers an open `input-required` task. Calls then run one at a time,
   * in the order the model made them. Without it, every call starts a new task in a new context.
   * @default false
   */
  conversation?: boolean;
}
