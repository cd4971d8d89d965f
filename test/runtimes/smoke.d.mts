/** Types of ./smoke.mjs (plain ESM so every runtime runs it as it is). */
import type { ClientOptions } from 'a2a-resilient';

/** One check's outcome. */
export interface SmokeResult {
  name: string;
  ok: boolean;
  ms: number;
  detail: string;
}
/** What a run reports. */
export interface SmokeReport {
  runtime: string;
  results: SmokeResult[];
  stderr?: string;
}
/** The agents' base URLs, by role (see ./agents.mjs). */
export type SmokeAgents = Record<'basic' | 'brokenCard' | 'stream' | 'busy' | 'hang' | 'failing', string>;

export const CHECKS: readonly string[];
export function runtimeName(): string;
export function runSmoke(agents: SmokeAgents, clientOptions?: ClientOptions): Promise<SmokeReport>;
