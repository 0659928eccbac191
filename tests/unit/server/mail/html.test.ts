import { describe, expect, it } from 'vitest';
import { escapeHtml } from '~/server/mail/html.ts';

describe('escapeHtml', () => {
  it('escapes the five characters that change the meaning of HTML text and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;');
  });

  it('escapes an ampersand once, so escaped text is escaped again as text', () => {
    expect(escapeHtml('&lt;')).toBe('&amp;lt;');
  });

  it('leaves other text, accents included, as it is', () => {
    expect(escapeHtml('Caja de sobres — Pokémon, $1,299.00')).toBe('Caja de sobres — Pokémon, $1,299.00');
  });
});
