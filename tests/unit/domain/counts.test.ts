import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatCount } from '~/domain/counts';
import { resultsLabel } from '~/domain/explore';
import { resultsHeading } from '~/domain/products';
import { seeAllLabel } from '~/islands/header-search/SearchPanel';
import { resultsMessage } from '~/islands/header-search/SearchBox';
import { shownMessage } from '~/islands/catalog/listing-filters';

describe('counts as a Mexican shopper reads them', () => {
  it('groups thousands with a comma, as es-MX does', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(100000)).toBe('100,000');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(1000)).toBe(new Intl.NumberFormat('es-MX').format(1000));
  });

  it('in every text that shows a count of products or results', () => {
    expect(resultsLabel(100000)).toBe('100,000 resultados');
    expect(resultsLabel(1)).toBe('1 resultado');
    expect(seeAllLabel(1234)).toBe('Ver todos los resultados (1,234)');
    expect(resultsMessage(2500)).toBe('2,500 productos encontrados.');
    expect(resultsHeading(80000, 'Pokémon')).toBe('Resultados (80,000) – POKÉMON');
    expect(shownMessage(12, 1500)).toBe('Mostrando 12 de 1,500 productos de esta página.');
  });
});

describe('the count format, made ahead of the keystroke that needs it', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('is not made for counts under 1,000, and is made once in idle time when asked ahead', async () => {
    vi.resetModules();
    const made = vi.spyOn(Intl, 'NumberFormat');
    const idle: Array<() => void> = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    const counts = await import('~/domain/counts');
    expect(counts.formatCount(24)).toBe('24');
    expect(made).not.toHaveBeenCalled();
    counts.prepareCountFormat();
    expect(made).not.toHaveBeenCalled();
    expect(idle).toHaveLength(1);
    idle[0]();
    expect(made).toHaveBeenCalledTimes(1);
    // Shown on the keystroke: the format is there already, and asking ahead again does nothing.
    expect(counts.formatCount(12345)).toBe('12,345');
    counts.prepareCountFormat();
    expect(made).toHaveBeenCalledTimes(1);
    expect(idle).toHaveLength(1);
  });
});
