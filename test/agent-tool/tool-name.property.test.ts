import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FALLBACK_TOOL_NAME, toolNameFromCard } from '../../src/agent-tool/tool-name.js';

const PROVIDER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

describe('toolNameFromCard: any card name becomes a name every model provider accepts', () => {
  it('any string (unicode, punctuation, empty, very long) maps to [A-Za-z0-9_-]{1,64}, the same way every time', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 100 }), fc.string({ unit: 'binary', maxLength: 100 })), (name) => {
        const safe = toolNameFromCard(name);
        expect(safe).toMatch(PROVIDER_NAME);
        expect(toolNameFromCard(name)).toBe(safe);
        // A safe name is a fixed point: naming the tool again (e.g. from a saved name) changes nothing.
        expect(toolNameFromCard(safe)).toBe(safe);
      }),
      { numRuns: 1_000 },
    );
  });

  it('keeps a name that is already valid unchanged (ASCII letters and digits, up to 64)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9]{1,64}$/), (name) => {
        expect(toolNameFromCard(name)).toBe(name);
      }),
    );
    expect(toolNameFromCard('billing-agent_v2')).toBe('billing-agent_v2');
  });

  it('turns spaces and punctuation into single underscores, trims them, drops accents, cuts to 64', () => {
    expect(toolNameFromCard('Billing Agent (EU)')).toBe('Billing_Agent_EU');
    expect(toolNameFromCard('  weather / forecast!!  ')).toBe('weather_forecast');
    expect(toolNameFromCard('Café Crème')).toBe('Cafe_Creme');
    expect(toolNameFromCard(`${'a'.repeat(63)} b`)).toBe('a'.repeat(63)); // cut at 64, no trailing _
    expect(toolNameFromCard('x'.repeat(100))).toHaveLength(64);
  });

  it('falls back to a2a_agent when nothing of the name is usable', () => {
    for (const name of ['', '   ', '!!!', '会计代理', '🤖']) expect(toolNameFromCard(name)).toBe(FALLBACK_TOOL_NAME);
  });
});
