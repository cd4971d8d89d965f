/**
 * The tool description a model reads to decide when to call the agent: the card's description and
 * its skills, bounded so a card with many skills does not crowd the model's context.
 */
import type { AgentCard } from '../protocol/model.js';

/** Longest description made from a card (some providers cap tool descriptions at 1024 characters). */
export const MAX_DESCRIPTION_LENGTH = 1024;

/** Longest text taken from one skill's description. */
const MAX_SKILL_LENGTH = 200;

/** Cuts `text` to `max` characters, marking the cut with `…`. */
function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The description of a tool calling the agent of `card`: what the agent says it does, then one line
 * per skill (`- name: description`), each skill cut to 200 characters and the whole to 1024 (skills
 * that do not fit are left out, and the text says how many). Ends with how to use the tool. Never throws.
 */
export function toolDescription(card: Pick<AgentCard, 'name' | 'description' | 'skills'>): string {
  const head = cut(card.description?.trim() || `The remote A2A agent "${card.name}".`, MAX_DESCRIPTION_LENGTH / 2);
  const usage = 'Send it one message in natural language; the answer is its reply.';
  const lines: string[] = [];
  let length = head.length + usage.length + 10; // + "\nSkills:\n" and the "\n" before the usage line
  const skills = card.skills ?? [];
  for (const [i, skill] of skills.entries()) {
    const line = cut(`- ${skill.name}${skill.description ? `: ${skill.description}` : ''}`, MAX_SKILL_LENGTH);
    const more = skills.length - i;
    // Leave room for the "(n more skills)" note.
    if (length + line.length + 1 + 24 > MAX_DESCRIPTION_LENGTH) {
      lines.push(`(${more} more skill${more === 1 ? '' : 's'})`);
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  const skillText = lines.length > 0 ? `\nSkills:\n${lines.join('\n')}` : '';
  // Bounded by construction; the cut is a last guard.
  return `${head}${skillText}\n${usage}`.slice(0, MAX_DESCRIPTION_LENGTH);
}
