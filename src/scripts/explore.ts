/**
 * /explore in the browser. The page works without it (its filters are a GET form the server
 * answers); with it, every change shows at once: the address is rewritten, and the results and
 * the filters' counts come from /explore/resultados (the same server search, as HTML parts) and
 * replace theirs in place, so focus stays on the control the shopper is using. Words typed or
 * filters chosen before this script ran are read when it starts. 'Ver más' adds the next 24 cards
 * and moves focus to the first of them.
 */
import { filtersFromQuery, filtersToQuery } from '~/domain/explore-url.ts';
import { CATALOG_EXPLORE_SCRIPT_TEXT } from '~/i18n/catalog.ts';

const PARTS = '/explore/resultados';
const ERROR = CATALOG_EXPLORE_SCRIPT_TEXT.loadFailed;

/** The form's state as the address writes it ('?franquicia=pokemon&disponible=1'). */
function formQuery(form: HTMLFormElement): string {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') params.append(name, value);
  return filtersToQuery(filtersFromQuery(params.toString()));
}

/**
 * Copies the marked parts of a fresh answer into the page: `data-part` their content, `data-show`
 * whether they are shown. A part the page already shows as the answer has it is left as it is (an
 * order changes the cards, not the filters' counts), which spares the browser laying out every
 * select's options again; the page's part itself is compared, node by node, so one changed in
 * place since ('Ver más', an error message, a script's mark) is replaced, and nothing is copied or
 * written out as text to be compared. The answer is parsed once: its nodes move into the page. A
 * select's options are written as HTML instead, so the select takes the one marked selected (moved
 * option nodes would not); the select element itself stays, so it keeps focus while its options
 * change.
 */
function applyParts(root: ParentNode, html: string): string | null {
  const fresh = document.createElement('template');
  fresh.innerHTML = html;
  for (const part of fresh.content.querySelectorAll<HTMLElement>('[data-show]')) {
    const live = root.querySelector<HTMLElement>(`[data-show="${part.dataset.show}"]`);
    if (live) live.hidden = part.hidden;
  }
  for (const part of fresh.content.querySelectorAll<HTMLElement>('[data-part]')) {
    const live = root.querySelector<HTMLElement>(`[data-part="${part.dataset.part ?? ''}"]`);
    if (!live || live.isEqualNode(part)) continue;
    if (live instanceof HTMLSelectElement) live.innerHTML = part.innerHTML;
    else live.replaceChildren(...part.childNodes);
  }
  return fresh.content.querySelector<HTMLElement>('[data-explore-query]')?.dataset.exploreQuery ?? null;
}

/**
 * Cards put in the page hold their add button until their drop as the listings' do: the drops'
 * script (src/scripts/drops.ts, on the page whenever the catalogue has a drop ahead) is told to
 * bring them to the shop's clock at once (its DROPS_CHANGED_EVENT; not imported, so /explore does
 * not carry the drops' code when there is no drop).
 */
function holdDrops(root: ParentNode): void {
  if (root.querySelector('button[data-drop-at]')) document.dispatchEvent(new Event('tienda:drops-changed'));
}

/** Clears every filter and the words. */
function clearForm(form: HTMLFormElement): void {
  for (const element of form.elements) {
    if (element instanceof HTMLSelectElement) element.selectedIndex = 0;
    else if (element instanceof HTMLInputElement) {
      if (element.type === 'checkbox') element.checked = false;
      else element.value = '';
    }
  }
}

/** A change of franchise drops a chosen type or expansion of another franchise (each option names its own). */
function dropOtherFranchises(form: HTMLFormElement, franchise: string): void {
  if (!franchise) return;
  for (const name of ['tipo', 'expansion']) {
    const select = form.elements.namedItem(name);
    if (!(select instanceof HTMLSelectElement)) continue;
    const chosen = select.selectedOptions[0]?.dataset.franchise;
    if (chosen && chosen !== franchise) select.selectedIndex = 0;
  }
}

export function mountExplore(): void {
  const form = document.getElementById('explore-form');
  const results = document.querySelector<HTMLElement>('.explore-results');
  if (!(form instanceof HTMLFormElement) || !results) return;
  const page = form.parentElement ?? document.body;
  const sheet = form.querySelector('dialog');
  form.classList.add('explore-js');
  let shown = filtersToQuery(filtersFromQuery(window.location.search));
  let inFlight: AbortController | null = null;

  const show = async (query: string) => {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    shown = query;
    // The request goes out first; the address and the busy state are written while the server
    // answers (in Chromium's trace of the bench's /explore session, that work took 10-13 ms of
    // the main thread in the first two changes, and the request waited for it).
    const answer = fetch(`${PARTS}${query}`, { signal: controller.signal });
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${query}`);
    results.setAttribute('aria-busy', 'true');
    try {
      const response = await answer;
      if (!response.ok) throw new Error(String(response.status));
      const canonical = applyParts(page, await response.text());
      holdDrops(results);
      if (canonical !== null && canonical !== query) {
        shown = canonical;
        window.history.replaceState(window.history.state, '', `${window.location.pathname}${canonical}`);
      }
    } catch {
      if (controller.signal.aborted) return;
      const count = results.querySelector('[data-part="count"]');
      if (count) count.textContent = ERROR;
    } finally {
      if (inFlight === controller) results.removeAttribute('aria-busy');
    }
  };
  const update = () => {
    const query = formQuery(form);
    if (query !== shown) void show(query);
  };

  form.addEventListener('input', (event) => {
    // Words show their results as they are typed; a price when it is entered (change).
    if (event.target instanceof HTMLInputElement && event.target.type === 'search') update();
  });
  form.addEventListener('change', (event) => {
    if (event.target instanceof HTMLSelectElement && event.target.name === 'franquicia') dropOtherFranchises(form, event.target.value);
    update();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (sheet?.open) sheet.close();
    update();
  });
  form.querySelector('[data-explore-clear]')?.addEventListener('click', (event) => {
    event.preventDefault();
    clearForm(form);
    update();
  });
  // Browsers without the button commands open the sheet here.
  if (!('commandForElement' in HTMLButtonElement.prototype)) {
    form.querySelector('.explore-filters-toggle')?.addEventListener('click', () => sheet?.showModal());
  }
  results.addEventListener('click', (event) => {
    const more = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[data-explore-more]') : null;
    if (!more) return;
    event.preventDefault();
    void showMore(results, more);
  });
  // What the shopper typed or chose before this script ran.
  update();
}

/** 'Ver más': the next page's cards after the others, focus on the first of them, and the next 'Ver más' (or none). */
async function showMore(results: HTMLElement, more: HTMLAnchorElement): Promise<void> {
  const next = new URL(more.href);
  next.searchParams.set('solo', 'mas');
  try {
    const response = await fetch(`${PARTS}${next.search}`);
    if (!response.ok) throw new Error(String(response.status));
    const fresh = document.createElement('template');
    fresh.innerHTML = await response.text();
    const grid = results.querySelector('ul.product-grid');
    const cards = [...fresh.content.querySelectorAll('[data-part="more-cards"] > li')];
    if (!grid || cards.length === 0) throw new Error('empty');
    grid.append(...cards);
    holdDrops(grid);
    cards[0]?.querySelector<HTMLAnchorElement>('.product-card-link')?.focus();
    const href = fresh.content.querySelector<HTMLAnchorElement>('[data-part="more-href"]')?.getAttribute('href');
    if (href) more.href = href;
    else more.closest('.explore-more')?.remove();
  } catch {
    // The link still works as a link: the page with one more page of results.
    window.location.assign(more.href);
  }
}
