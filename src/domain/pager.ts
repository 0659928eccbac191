/** The one pager of the shop's paged lists: which page is shown and what 'Página x de y' says. */
import { PAGER_TEXT } from '../i18n/common.ts';

/** What a pager shows for one page of a list. */
export interface PagerState {
  /** 1-based page actually shown (clamped to the existing pages). */
  page: number;
  totalPages: number;
  hasPrevious: boolean;
  hasNext: boolean;
  /** 'Página x de y'. */
  label: string;
  /** Pager ('Anteriores', 'Siguientes', label) only when there is more than one page. */
  showPager: boolean;
}

/** The pager of page `page` of a list of `total` items, `pageSize` a page. */
export function pagerOf(total: number, page: number, pageSize: number): PagerState {
  const count = Number.isFinite(total) && total > 0 ? Math.trunc(total) : 0;
  const totalPages = Math.max(1, Math.ceil(count / pageSize));
  const requested = Number.isFinite(page) ? Math.trunc(page) : 1;
  const current = Math.min(Math.max(1, requested), totalPages);
  return {
    page: current,
    totalPages,
    hasPrevious: current > 1,
    hasNext: current < totalPages,
    label: PAGER_TEXT.page(current, totalPages),
    showPager: count > pageSize,
  };
}
