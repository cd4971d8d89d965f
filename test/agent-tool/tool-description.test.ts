import { describe, expect, it } from 'vitest';
import { MAX_DESCRIPTION_LENGTH, toolDescription } from '../../src/agent-tool/tool-description.js';

describe('toolDescription: what the model reads to pick the agent', () => {
  it('the card’s description, then each skill as "- name: description", then how to call it', () => {
    const text = toolDescription({
      name: 'billing',
      description: 'Answers questions about invoices.',
      skills: [
        { id: 'a', name: 'Invoice lookup', description: 'Finds an invoice by number.' },
        { id: 'b', name: 'Dunning' },
      ],
    });
    expect(text.split('\n')).toEqual(['Answers questions about invoices.', 'Skills:', '- Invoice lookup: Finds an invoice by number.', '- Dunning', expect.stringContaining('one message')]);
  });

  it('a card without a description still says which agent it is', () => {
    expect(toolDescription({ name: 'billing', skills: [] })).toContain('"billing"');
  });

  it('stays within 1024 characters for a card with many long skills, and says how many were left out', () => {
    const skills = Array.from({ length: 80 }, (_, i) => ({ id: `s${i}`, name: `skill ${i}`, description: 'does a thing '.repeat(40) }));
    const text = toolDescription({ name: 'big', description: 'x'.repeat(2_000), skills });
    expect(text.length).toBeLessThanOrEqual(MAX_DESCRIPTION_LENGTH);
    expect(text).toMatch(/\(\d+ more skills\)/);
    expect(text).toContain('- skill 0: does a thing');
    expect(text).toContain('one message'); // the usage line survives the cut
  });
});
