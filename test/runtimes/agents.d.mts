/** Types of ./agents.mjs. */
import type { MockAgent } from 'a2a-resilient/mocks';
import type { SmokeAgents, SmokeResult } from './smoke.mjs';

export function startAgents(): Promise<{ urls: SmokeAgents; agents: Record<keyof SmokeAgents, MockAgent>; close: () => Promise<void> }>;
export function agentSideFailures(agents: Record<keyof SmokeAgents, MockAgent>, ran: readonly string[]): SmokeResult[];
export function engineSeen(agents: Record<keyof SmokeAgents, MockAgent>): string;
