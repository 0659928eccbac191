/**
 * Explore page: filters and sorting over the compact catalogue JSON, reflected in the query string
 * so a filtered view can be shared.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { usePrebuiltInput } from '../prebuilt.ts';
import { PUBLIC_SUPABASE_ANON_KEY, PUBLIC_SUPABASE_URL } from 'astro:env/client';
import { fetchLiveStock, isLiveSoldOut, type LiveStock } from '~/scripts/live-stock.ts';
import { formatCentavos } from '~/domain/money.ts';
import { discountPercent, isSoldOut, PRODUCT_MESSAGES } from '~/domain/products.ts';
import { hasFacetFilter, matchesFacets, NO_FACETS, type FacetOptions } from '~/domain/search/facets.ts';
import {
  activeFilterCount,
  applyFilters,
  EMPTY_FILTERS,
  EXPLORE_PAGE,
  exploreFacetOptions,
  exploreFacets,
  filtersFromQuery,
  filtersToQuery,
  optionsFor,
  parseExploreData,
  resultsLabel,
  type ExploreData,
  type ExploreFilters,
  type ExploreProduct,
  type Sort,
} from '~/domain/explore.ts';

const PAGE = EXPLORE_PAGE;
/** The filters' sheet on a phone; a sidebar on wider screens (explore.astro's styles). */
const SHEET_ID = 'explore-filtros';

const SORT_LABELS: Record<Sort, string> = {
  relevancia: 'Relevancia',
  'precio-asc': 'Precio: menor a mayor',
  'precio-desc': 'Precio: mayor a menor',
  nuevos: 'Más nuevos',
  nombre: 'Nombre (A-Z)',
};

type Status = 'loading' | 'ready' | 'error';

function Card({ product, live, eager = false }: { product: ExploreProduct; live: LiveStock | undefined; eager?: boolean }) {
  // The catalogue JSON is as old as the last build; live stock (one request per page) wins.
  const stock = live ? live.stock : product.stock;
  const soldOut = live ? isLiveSoldOut(live) : isSoldOut(product);
  const percent = discountPercent(product);
  // A single card is bought as one of its copies, chosen on its page (as the listings' cards do).
  const single = product.offers !== undefined;
  const href = `/product/${encodeURIComponent(product.id)}`;
  const add = JSON.stringify({ id: product.id, name: product.name, priceCentavos: product.priceCentavos, stock, image: product.image });
  return (
    <article className={`product-card${soldOut ? ' is-sold-out' : ''}`}>
      <a className="product-card-link" href={href}>
        <span className="product-card-media">
          {product.image ? (
            <img src={product.image} alt="" width={300} height={300} loading={eager ? 'eager' : 'lazy'} decoding="async" />
          ) : (
            <span className="product-card-noimg" aria-hidden="true" />
          )}
          <span className="product-card-badges">
            {percent !== null && <span className="badge badge-danger">-{percent}%</span>}
            {product.preorder && !soldOut && <span className="badge badge-info">{PRODUCT_MESSAGES.preorder}</span>}
          </span>
          {soldOut && <span className="product-card-overlay">{PRODUCT_MESSAGES.soldOut}</span>}
        </span>
        <h3 className="product-card-name">{product.name}</h3>
      </a>
      <p className="product-card-price">
        <span className="price-now">
          {product.from && <span className="price-from">Desde </span>}
          {formatCentavos(product.priceCentavos)}
        </span>
        {percent !== null && product.originalPriceCentavos !== null && (
          <s className="price-was">
            <span className="visually-hidden">Antes </span>
            {formatCentavos(product.originalPriceCentavos)}
          </s>
        )}
      </p>
      {single && !soldOut ? (
        <a className="btn btn-primary product-card-add" href={href} aria-label={`Elegir condición e idioma de ${product.name}`}>
          Elegir
        </a>
      ) : (
        <button
          type="button"
          className="btn btn-primary product-card-add"
          data-card-add={add}
          disabled={soldOut}
          aria-label={`Agregar ${product.name} al carrito`}
        >
          {soldOut ? PRODUCT_MESSAGES.soldOut : 'Agregar'}
        </button>
      )}
    </article>
  );
}

/** One catalogue filter: a labelled select with an "all" choice first. */
function FilterSelect(props: {
  id: string;
  label: string;
  allLabel: string;
  value: string;
  options: ReadonlyArray<{ id: string; name: string }>;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} className="input" value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">{props.allLabel}</option>
        {props.options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The first results of /explore with no filters, written into the page at build time. */
export interface ExploreInitial {
  /** The first EXPLORE_PAGE products in the default order (applyFilters with EMPTY_FILTERS). */
  products: ExploreProduct[];
  /** How many products there are in all. */
  total: number;
}

/** Cards of the first row on a phone (two per row) or a laptop: loaded at once, they are what the page paints first. */
const EAGER_CARDS = 4;

/**
 * The filterable product grid of /explore. With `initial`, the page's HTML already shows the first
 * results of the unfiltered catalogue while the catalogue JSON loads; an address with filters
 * hides them from the first paint (explore.astro marks the page before it renders) and shows
 * 'Cargando productos…' instead, so no shopper sees results their filters exclude.
 */
export default function ExploreCatalog({ dataUrl, initial }: { dataUrl: string; initial?: ExploreInitial }) {
  const [data, setData] = useState<ExploreData | null>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [filters, setFilters] = useState<ExploreFilters>(EMPTY_FILTERS);
  const [shown, setShown] = useState(PAGE);
  const searchRef = useRef<HTMLInputElement>(null);

  const load = useCallback(async () => {
    setStatus('loading');
    try {
      const response = await fetch(dataUrl);
      if (!response.ok) throw new Error(String(response.status));
      const parsed = parseExploreData(await response.json());
      if (!parsed) throw new Error('catalog');
      setData(parsed);
      setStatus('ready');
    } catch {
      setStatus('error');
    }
  }, [dataUrl]);

  useEffect(() => {
    setFilters((current) => {
      const fromUrl = filtersFromQuery(window.location.search);
      return current.q && !fromUrl.q ? { ...fromUrl, q: current.q } : fromUrl;
    });
    const onPop = () => setFilters(filtersFromQuery(window.location.search));
    window.addEventListener('popstate', onPop);
    void load();
    return () => window.removeEventListener('popstate', onPop);
  }, [load]);

  // Words typed before hydration are kept (src/islands/prebuilt.ts); the query string's q is
  // read right after, so a typed value only wins when there is one.
  usePrebuiltInput(searchRef, '', (typed) => {
    if (typed) update({ q: typed });
  });

  const update = (patch: Partial<ExploreFilters>) => {
    setFilters((current) => {
      const next = { ...current, ...patch };
      // A franchise change drops a type or expansion of another franchise.
      if (patch.franchise !== undefined && data) {
        if (next.type && !optionsFor(data.types, next.franchise).some((o) => o.id === next.type)) next.type = '';
        if (next.expansion && !optionsFor(data.expansions, next.franchise).some((o) => o.id === next.expansion)) next.expansion = '';
      }
      const url = `${window.location.pathname}${filtersToQuery(next)}`;
      window.history.replaceState(null, '', url);
      return next;
    });
    setShown(PAGE);
  };

  // The singles filters are offered over the results of the other filters, with the values found there.
  const unfaceted = useMemo(() => (data ? applyFilters(data.products, { ...filters, ...NO_FACETS }) : []), [data, filters]);
  const facetOptions = useMemo(() => exploreFacetOptions(unfaceted), [unfaceted]);
  const results = useMemo(
    () => (hasFacetFilter(filters) ? unfaceted.filter((product) => matchesFacets(exploreFacets(product), filters)) : unfaceted),
    [unfaceted, filters],
  );

  const live = useLiveStockOf(results, shown);
  // Until the catalogue JSON is here, the prebuilt first results stand in for the unfiltered ones.
  const prebuilt = status === 'loading' && initial !== undefined && initial.products.length > 0 && filtersToQuery(filters) === '' ? initial : null;
  const active = activeFilterCount(filters);
  const gridRef = useRef<HTMLUListElement>(null);

  // 'Ver más': the next cards appear and focus moves to the first of them, where reading goes on.
  const more = () => {
    const first = shown;
    setShown((n) => n + PAGE);
    requestAnimationFrame(() => gridRef.current?.querySelectorAll<HTMLAnchorElement>('.product-card-link')[first]?.focus());
  };

  return (
    <div className="explore">
      <SearchBox value={filters.q} inputRef={searchRef} onChange={(q) => update({ q })} />
      <FilterSheet active={active}>
        <FilterForm filters={filters} update={update} data={data} facets={facetOptions} />
      </FilterSheet>

      <div className="explore-results">
        {/* The cards' names are h3s: the results get their h2, as a listing's products do. */}
        <h2 className="visually-hidden">Resultados</h2>
        {status === 'loading' && (
          <p className={`explore-status${prebuilt ? ' explore-prebuilt-loading' : ''}`} role="status">
            <span className="spinner" aria-hidden="true" /> Cargando productos…
          </p>
        )}
        {prebuilt && <PrebuiltResults initial={prebuilt} />}
        {status === 'error' && (
          <div className="expansion-error" role="alert">
            <p>No se pudo cargar el catálogo. Intenta de nuevo.</p>
            <button type="button" className="btn btn-outline" onClick={() => void load()}>
              Reintentar
            </button>
          </div>
        )}
        {status === 'ready' && (
          <>
            <p className="explore-count" role="status" aria-live="polite">
              {resultsLabel(results.length)}
            </p>
            {results.length === 0 ? (
              <p className="listing-empty">No se encontraron productos.</p>
            ) : (
              <CardGrid products={results.slice(0, shown)} live={live} gridRef={gridRef} />
            )}
            {results.length > shown && (
              <p className="explore-more">
                <button type="button" className="btn btn-outline" onClick={more}>
                  Ver más
                </button>
              </p>
            )}
          </>
        )}
      </div>
    </div>
  );
}

/** The results' cards in the listings' grid; the first row's images load at once. */
function CardGrid(props: { products: readonly ExploreProduct[]; live?: ReadonlyMap<string, LiveStock>; gridRef?: RefObject<HTMLUListElement | null> }) {
  return (
    <ul className="product-grid" aria-label="Productos" ref={props.gridRef}>
      {props.products.map((product, i) => (
        <li key={product.id}>
          <Card product={product} live={props.live?.get(product.id)} eager={i < EAGER_CARDS} />
        </li>
      ))}
    </ul>
  );
}

/** The first results written into the page at build time, shown until the catalogue JSON is here. */
function PrebuiltResults({ initial }: { initial: ExploreInitial }) {
  return (
    <div className="explore-prebuilt">
      <p className="explore-count">{resultsLabel(initial.total)}</p>
      <CardGrid products={initial.products} />
    </div>
  );
}

/** The words to find, outside the filters' sheet so a phone always shows it. */
function SearchBox({ value, inputRef, onChange }: { value: string; inputRef: RefObject<HTMLInputElement | null>; onChange: (q: string) => void }) {
  return (
    <form className="explore-search" role="search" onSubmit={(event) => event.preventDefault()}>
      <div className="field explore-q">
        <label htmlFor="f-q">Buscar</label>
        <input
          ref={inputRef}
          id="f-q"
          className="input"
          type="search"
          name="q"
          placeholder="Nombre del producto"
          autoComplete="off"
          enterKeyHint="search"
          maxLength={100}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      </div>
    </form>
  );
}

/**
 * On a phone the filters live in a sheet (a modal dialog) opened by 'Filtros (n)'; on wider screens
 * the same dialog is shown as a sidebar (explore.astro's styles) and the button is hidden.
 */
function FilterSheet({ active, children }: { active: number; children: ReactNode }) {
  const sheetRef = useRef<HTMLDialogElement>(null);
  return (
    <>
      {/* The button opens the sheet through the browser's own commands, so it works before this island starts. */}
      <button
        type="button"
        className="btn btn-outline explore-filters-toggle"
        aria-haspopup="dialog"
        {...{ command: 'show-modal', commandfor: SHEET_ID }}
        onClick={() => {
          if (!('commandForElement' in HTMLButtonElement.prototype) && !sheetRef.current?.open) sheetRef.current?.showModal();
        }}
      >
        {active > 0 ? `Filtros (${active})` : 'Filtros'}
      </button>
      <dialog id={SHEET_ID} ref={sheetRef} className="explore-sheet" aria-labelledby="explore-filtros-titulo">
        <h2 id="explore-filtros-titulo" className="explore-sheet-title">
          Filtros
        </h2>
        {children}
        <button
          type="button"
          className="btn btn-primary explore-sheet-close"
          {...{ command: 'close', commandfor: SHEET_ID }}
          onClick={() => {
            if (!('commandForElement' in HTMLButtonElement.prototype)) sheetRef.current?.close();
          }}
        >
          Ver resultados
        </button>
      </dialog>
    </>
  );
}

/** Live stock of the products on screen: one request per page of results not read yet. */
function useLiveStockOf(results: readonly ExploreProduct[], shown: number): ReadonlyMap<string, LiveStock> {
  const [live, setLive] = useState<ReadonlyMap<string, LiveStock>>(() => new Map());
  // A single's stock is its copies', which its page checks live; the product row's says nothing.
  const visibleKey = results
    .slice(0, shown)
    .filter((p) => p.offers === undefined)
    .map((p) => p.id)
    .join('|');
  useEffect(() => {
    const missing = visibleKey.split('|').filter((id) => id !== '' && !live.has(id));
    if (missing.length === 0) return undefined;
    let cancelled = false;
    void fetchLiveStock(missing, { url: PUBLIC_SUPABASE_URL, anonKey: PUBLIC_SUPABASE_ANON_KEY }).then((found) => {
      if (!cancelled && found.size > 0) setLive((before) => new Map([...before, ...found]));
    });
    return () => {
      cancelled = true;
    };
    // `live` is read to skip ids already known, not as a trigger: new results are. With `live`
    // as a dependency every answer would run the effect again.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new set of visible results fetches
  }, [visibleKey]);
  return live;
}

interface FilterFormProps {
  filters: ExploreFilters;
  update: (patch: Partial<ExploreFilters>) => void;
  data: ExploreData | null;
  facets: FacetOptions | null;
}

/** The choices of a singles filter: the values present, plus the chosen one even when it is not. */
function withChosen(choices: ReadonlyArray<{ code: string; label: string }>, chosen: string): Array<{ id: string; name: string }> {
  const options = choices.map((choice) => ({ id: choice.code, name: choice.label }));
  return chosen && !options.some((option) => option.id === chosen) ? [...options, { id: chosen, name: chosen }] : options;
}

/** Rarity, condition, language, finish and 'Solo graduadas': shown when singles are among the results. */
function FacetFilters({ filters, update, facets }: Pick<FilterFormProps, 'filters' | 'update'> & { facets: FacetOptions }) {
  return (
    <>
      <FilterSelect
        id="f-rareza"
        label="Rareza"
        allLabel="Todas"
        value={filters.rarity}
        options={withChosen(facets.rarities, filters.rarity)}
        onChange={(rarity) => update({ rarity })}
      />
      <FilterSelect
        id="f-condicion"
        label="Condición"
        allLabel="Todas"
        value={filters.condition}
        options={withChosen(facets.conditions, filters.condition)}
        onChange={(condition) => update({ condition })}
      />
      <FilterSelect
        id="f-idioma"
        label="Idioma"
        allLabel="Todos"
        value={filters.language}
        options={withChosen(facets.languages, filters.language)}
        onChange={(language) => update({ language })}
      />
      <FilterSelect
        id="f-acabado"
        label="Acabado"
        allLabel="Todos"
        value={filters.finish}
        options={withChosen(facets.finishes, filters.finish)}
        onChange={(finish) => update({ finish })}
      />
      {(facets.graded || filters.graded) && (
        <fieldset className="explore-flags">
          <legend className="visually-hidden">Cartas graduadas</legend>
          <label>
            <input type="checkbox" checked={filters.graded} onChange={(e) => update({ graded: e.currentTarget.checked })} /> Solo graduadas
          </label>
        </fieldset>
      )}
    </>
  );
}

/** The filters; every change shows at once and goes into the address. */
function FilterForm({ filters, update, data, facets }: FilterFormProps) {
  const types = data ? optionsFor(data.types, filters.franchise) : [];
  const expansions = data ? optionsFor(data.expansions, filters.franchise) : [];
  return (
    <form className="explore-filters" aria-label="Filtros" onSubmit={(event) => event.preventDefault()}>
      <FilterSelect
        id="f-franquicia"
        label="Franquicia"
        allLabel="Todas"
        value={filters.franchise}
        options={data?.franchises ?? []}
        onChange={(franchise) => update({ franchise })}
      />
      <FilterSelect id="f-tipo" label="Tipo de producto" allLabel="Todos" value={filters.type} options={types} onChange={(type) => update({ type })} />
      <FilterSelect
        id="f-expansion"
        label="Expansión"
        allLabel="Todas"
        value={filters.expansion}
        options={expansions}
        onChange={(expansion) => update({ expansion })}
      />
      {facets && <FacetFilters filters={filters} update={update} facets={facets} />}
      <div className="field">
        <label htmlFor="f-orden">Ordenar por</label>
        <select id="f-orden" className="input" value={filters.sort} onChange={(e) => update({ sort: e.currentTarget.value as Sort })}>
          {Object.entries(SORT_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="explore-flags">
        <legend className="visually-hidden">Disponibilidad</legend>
        <label>
          <input type="checkbox" checked={filters.inStock} onChange={(e) => update({ inStock: e.currentTarget.checked })} /> Solo disponibles
        </label>
        <label>
          <input type="checkbox" checked={filters.preorder} onChange={(e) => update({ preorder: e.currentTarget.checked })} /> Preventa
        </label>
        <label>
          <input type="checkbox" checked={filters.sale} onChange={(e) => update({ sale: e.currentTarget.checked })} /> En oferta
        </label>
      </fieldset>
      <button type="button" className="btn btn-outline" onClick={() => update({ ...EMPTY_FILTERS })}>
        Limpiar filtros
      </button>
    </form>
  );
}
