import type { Artifact, Part, TaskState } from '../protocol/model.js';

/** Fallback error messages of terminal failure states without any text. */
export const FALLBACK_MESSAGES: Readonly<Record<'failed' | 'rejected' | 'canceled', string>> = {
  failed: 'task failed',
  rejected: 'task rejected by the agent',
  canceled: 'task canceled',
};

/** True for the states that end a task with a failure. */
export function isFailureState(state: TaskState): state is 'failed' | 'rejected' | 'canceled' {
  return state === 'failed' || state === 'rejected' || state === 'canceled';
}

/** True for the states in which the task waits for the caller. */
export function isInterruptedState(state: TaskState): boolean {
  return state === 'input-required' || state === 'auth-required';
}

/** The text parts of `parts`, joined with newlines (`''` when there are none). */
export function textOf(parts: readonly Part[] | undefined): string {
  if (!parts) return '';
  if (parts.length === 1) {
    const only = parts[0];
    return only?.kind === 'text' ? only.text : '';
  }
  const texts: string[] = [];
  for (const part of parts) if (part.kind === 'text') texts.push(part.text);
  return texts.join('\n');
}

/**
 * The text of an artifact's parts: its text parts concatenated as they are. A2A servers keep each
 * appended chunk as a part of its own, so an artifact's parts are pieces of one text (unlike a
 * message's parts, which {@link textOf} joins with newlines).
 */
export function artifactText(parts: readonly Part[]): string {
  if (parts.length === 1) {
    const only = parts[0];
    return only?.kind === 'text' ? only.text : '';
  }
  let text = '';
  for (const part of parts) if (part.kind === 'text') text += part.text;
  return text;
}

/** The text of every artifact ({@link artifactText}), joined with newlines, empty ones skipped. */
export function artifactsText(artifacts: readonly Artifact[] | undefined): string {
  if (!artifacts) return '';
  // Concatenated, not joined: long texts are linked, not copied (see ArtifactTexts).
  let out = '';
  for (const artifact of artifacts) {
    const text = artifactText(artifact.parts);
    if (text !== '') out = out === '' ? text : `${out}\n${text}`;
  }
  return out;
}

/** The first defined id, else a generated one. */
export function pickId(first?: string, second?: string, third?: string): string {
  if (first !== undefined && first !== '') return first;
  if (second !== undefined && second !== '') return second;
  if (third !== undefined && third !== '') return third;
  return `evt-${crypto.randomUUID()}`;
}
