import { describe, expect, it } from 'vitest';
import { expansions, franchises, productTypes } from '~/domain/catalog.ts';
import { ALIAS_MAX_WORDS, SEARCH_ALIASES } from '~/domain/name-matching/aliases.ts';
import { normalize } from '~/domain/name-matching/matching.ts';

describe('the alias table', () => {
  it('points every abbreviation at a franchise, expansion or product type name of the catalogue', () => {
    const names = new Set([...franchises, ...expansions, ...productTypes].map((item) => normalize(item.name)));
    for (const [alias, name] of Object.entries(SEARCH_ALIASES)) expect(names.has(normalize(name)), `${alias} → ${name}`).toBe(true);
  });

  it('has no two keys that read alike', () => {
    const keys = Object.keys(SEARCH_ALIASES).map((key) => normalize(key).replaceAll(' ', ''));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has keys of whole words, none longer than ALIAS_MAX_WORDS', () => {
    for (const key of Object.keys(SEARCH_ALIASES)) {
      expect(key, key).toBe(key.trim());
      expect(key.split(/\s+/).length, key).toBeLessThanOrEqual(ALIAS_MAX_WORDS);
    }
  });
});
