/**
 * The singles filters of a prebuilt listing page (src/components/catalog/ProductListing.astro):
 * the page holds every card with its facets in data attributes (data-rarity, data-offers) and a
 * form of the values present; this script hides the cards that do not match and keeps the
 * filters in the address (?condicion=LP&idioma=en), so a filtered listing can be shared. The
 * links to the listing's other pages and to the whole listing on /explore carry the same filters. A choice made before this script
 * runs is applied when it does.
 */
import { facetsFromQuery, facetsToParams, hasFacetFilter, matchesFacets, type FacetFilters } from '~/domain/singles-facets.ts';
import { formatCount } from '~/domain/counts.ts';
import { CATALOG_LISTING_FILTERS_TEXT } from '~/i18n/catalog.ts';

/** The number of cards shown, for the status line. */
export function shownMessage(shown: number, total: number): string {
  if (shown === 0) return CATALOG_LISTING_FILTERS_TEXT.none;
  return CATALOG_LISTING_FILTERS_TEXT.shown(formatCount(shown), formatCount(total), total === 1);
}

/** The form's state as filters; a value missing from its options (an old link) reads as not chosen. */
function readForm(form: HTMLFormElement): FacetFilters {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === 'string' && value) params.set(name, value);
  return facetsFromQuery(params);
}

/** Shows the filters in the form; values the page does not list are dropped. */
function writeForm(form: HTMLFormElement, params: URLSearchParams): void {
  for (const field of Array.from(form.elements)) {
    if (field instanceof HTMLSelectElement) {
      const wanted = params.get(field.name) ?? '';
      field.value = Array.from(field.options).some((option) => option.value === wanted) ? wanted : '';
    } else if (field instanceof HTMLInputElement && field.type === 'checkbox') {
      field.checked = params.get(field.name) === field.value;
    }
  }
}

/** Hides non-matching cards, says how many are shown, and writes the filters into the address and the page links. */
function apply(form: HTMLFormElement, filters: FacetFilters): void {
  const cards = Array.from(document.querySelectorAll<HTMLElement>('[data-offers]'));
  let shown = 0;
  for (const card of cards) {
    const match = matchesFacets({ rarity: card.dataset.rarity ?? '', offers: card.dataset.offers ?? '' }, filters);
    card.hidden = !match;
    if (match) shown += 1;
  }
  const status = form.querySelector<HTMLElement>('[data-filter-status]');
  if (status) status.textContent = hasFacetFilter(filters) ? shownMessage(shown, cards.length) : '';

  const url = new URL(window.location.href);
  facetsToParams(filters, url.searchParams);
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
  const query = facetsToParams(filters, new URLSearchParams()).toString();
  for (const link of Array.from(document.querySelectorAll<HTMLAnchorElement>('[data-listing-page]'))) {
    link.search = query;
  }
  // The same filters over every page of the listing.
  for (const link of Array.from(document.querySelectorAll<HTMLAnchorElement>('[data-listing-explore]'))) {
    const explore = new URL(link.href);
    facetsToParams(filters, explore.searchParams);
    link.setAttribute('href', `${explore.pathname}${explore.search}`);
  }
}

/** Wires the listing's filter form, if the page has one. */
export function mountListingFilters(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-listing-filters]');
  if (!form) return;
  // A choice made before this ran wins over the address; otherwise the address fills the form.
  const typed = readForm(form);
  if (!hasFacetFilter(typed)) writeForm(form, new URLSearchParams(window.location.search));
  apply(form, readForm(form));
  form.addEventListener('change', () => apply(form, readForm(form)));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    apply(form, readForm(form));
  });
  form.addEventListener('reset', () => {
    // The form's fields are cleared after this event.
    setTimeout(() => apply(form, readForm(form)));
  });
}
