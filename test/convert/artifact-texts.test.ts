import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArtifactTexts } from '../../src/convert/artifact-texts.js';

describe('ArtifactTexts', () => {
  it('random appends and replacements of short and long pieces: every text equals plain concatenation, read at any point', () => {
    // Pieces around the sizes the buffer treats differently (gathered vs linked) and runs long enough to fill blocks.
    const piece = fc.oneof(fc.string({ maxLength: 3 }), fc.string({ minLength: 60, maxLength: 70 }), fc.string({ minLength: 200, maxLength: 300 }));
    const op = fc.record({ id: fc.constantFrom('a', 'b'), text: piece, append: fc.boolean(), read: fc.boolean() });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 700 }), (ops) => {
        const texts = new ArtifactTexts();
        const reference = new Map<string, string>();
        for (const o of ops) {
          texts.update(o.id, o.text, o.append);
          reference.set(o.id, o.append ? (reference.get(o.id) ?? '') + o.text : o.text);
          expect(texts.lengthOf(o.id)).toBe(reference.get(o.id)?.length);
          if (o.read) expect(texts.textOf(o.id)).toBe(reference.get(o.id));
        }
        for (const [id, text] of reference) expect(texts.textOf(id)).toBe(text);
        expect(texts.joined()).toBe([...reference.values()].filter((t) => t !== '').join('\n'));
      }),
      { numRuns: 200 },
    );
  });

  it('an artifact not seen has no text; an emptied one is skipped when joining', () => {
    const texts = new ArtifactTexts();
    expect(texts.textOf('a')).toBeUndefined();
    texts.update('a', 'one', false);
    texts.update('b', 'two', false);
    texts.update('a', '', false);
    expect(texts.textOf('a')).toBe('');
    expect(texts.joined()).toBe('two');
  });
});
