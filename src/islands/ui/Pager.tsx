/** 'Anteriores' / 'Página n de m' / 'Siguientes' under a paged list. */
import type { PagerState } from '~/domain/pager.ts';
import { PAGER_TEXT } from '~/i18n/common.ts';

interface Props {
  /** The navigation's name, e.g. 'Páginas de pedidos'. */
  label: string;
  /** The page shown (pagerOf, src/domain/pager.ts). */
  pager: PagerState;
  /** Shows another page. */
  onPage: (page: number) => void;
  className: string;
  /** Announce the page text when it changes. */
  live?: boolean;
}

/** The pager of the account's orders and the back office's lists; nothing for a list of one page. */
export function Pager({ label, pager, onPage, className, live = false }: Props) {
  if (!pager.showPager) return null;
  return (
    <nav className={className} aria-label={label}>
      <button type="button" className="btn btn-outline" disabled={!pager.hasPrevious} onClick={() => onPage(pager.page - 1)}>
        {PAGER_TEXT.previous}
      </button>
      <span aria-live={live ? 'polite' : undefined}>{pager.label}</span>
      <button type="button" className="btn btn-outline" disabled={!pager.hasNext} onClick={() => onPage(pager.page + 1)}>
        {PAGER_TEXT.next}
      </button>
    </nav>
  );
}
