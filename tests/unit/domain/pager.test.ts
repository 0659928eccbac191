import { describe, expect, it } from 'vitest';
import { pagerOf } from '~/domain/pager.ts';

describe('pagerOf, the pager of every paged list', () => {
  it('says which page of how many, and whether there is one before or after', () => {
    expect(pagerOf(60, 2, 25)).toEqual({ page: 2, totalPages: 3, hasPrevious: true, hasNext: true, label: 'Página 2 de 3', showPager: true });
    expect(pagerOf(60, 3, 25)).toMatchObject({ hasPrevious: true, hasNext: false, label: 'Página 3 de 3' });
    expect(pagerOf(60, 1, 25)).toMatchObject({ hasPrevious: false, hasNext: true, label: 'Página 1 de 3' });
  });

  it('shows no pager for a list of one page, however full', () => {
    expect(pagerOf(25, 1, 25)).toMatchObject({ totalPages: 1, showPager: false });
    expect(pagerOf(26, 1, 25)).toMatchObject({ totalPages: 2, showPager: true });
    expect(pagerOf(0, 1, 25)).toMatchObject({ page: 1, totalPages: 1, showPager: false, label: 'Página 1 de 1' });
  });

  it('keeps a page asked for out of range within the pages there are', () => {
    expect(pagerOf(60, 9, 25).page).toBe(3);
    expect(pagerOf(60, 0, 25).page).toBe(1);
    expect(pagerOf(60, Number.NaN, 25).page).toBe(1);
    expect(pagerOf(60, 2.7, 25).page).toBe(2);
  });
});
