/**
 * The promotion form's 'Aplica a': franchises and product types as checkboxes (types grouped by
 * franchise), expansions as a list filtered by the chosen franchises and by a search box, and
 * products found by part of their name or collector number (a bounded search in the database) and
 * kept as removable chips with their names. Nothing chosen = the whole shop.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { searchScopeProducts, type ScopeOption, type ScopeOptions, type ScopeProduct } from '~/data/admin/promotion-scope.ts';
import { ADMIN_PROMOTIONS_TEXT as TEXT } from '~/i18n/promotions.ts';

/** The four lists of ids the database keeps (empty: no restriction). */
export interface Scope {
  franchiseIds: string[];
  expansionIds: string[];
  productTypeIds: string[];
  productIds: string[];
}

const toggle = (list: readonly string[], id: string, on: boolean) => (on ? [...list.filter((x) => x !== id), id] : list.filter((x) => x !== id));

/** Folds accents and case, so 'pokemon' finds 'Pokémon'. */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

function Checks({ options, chosen, onChange }: { options: readonly ScopeOption[]; chosen: readonly string[]; onChange: (id: string, on: boolean) => void }) {
  return (
    <ul className="promo-scope-checks">
      {options.map((o) => (
        <li key={o.id}>
          <label className="field-check">
            <input type="checkbox" checked={chosen.includes(o.id)} onChange={(e) => onChange(o.id, e.target.checked)} /> {o.name}
          </label>
        </li>
      ))}
    </ul>
  );
}

/** Options grouped by franchise, each group a fieldset named by the franchise. */
function ByFranchise({
  franchises,
  options,
  chosen,
  onChange,
}: {
  franchises: readonly ScopeOption[];
  options: readonly ScopeOption[];
  chosen: readonly string[];
  onChange: (id: string, on: boolean) => void;
}) {
  return (
    <>
      {franchises.map((f) => {
        const own = options.filter((o) => o.franchiseId === f.id);
        return own.length === 0 ? null : (
          <fieldset key={f.id} className="promo-scope-group">
            <legend>{f.name}</legend>
            <Checks options={own} chosen={chosen} onChange={onChange} />
          </fieldset>
        );
      })}
    </>
  );
}

function ProductPicker({ chosen, onChange }: { chosen: readonly ScopeProduct[]; onChange: (products: ScopeProduct[]) => void }) {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<ScopeProduct[] | null>([]);
  const [searching, setSearching] = useState(false);
  const asked = useRef(0);

  useEffect(() => {
    const text = query.trim();
    if (text.length < 2) {
      setResults([]);
      setSearching(false);
      return;
    }
    const ticket = ++asked.current;
    setSearching(true);
    const timer = setTimeout(() => {
      void searchScopeProducts(text)
        .catch(() => null)
        .then((found) => {
          if (ticket !== asked.current) return;
          setResults(found);
          setSearching(false);
        });
    }, 250);
    return () => clearTimeout(timer);
  }, [query]);

  const status =
    query.trim().length < 2
      ? ''
      : searching
        ? TEXT.productsSearching
        : results === null
          ? TEXT.productsFailed
          : results.length === 0
            ? TEXT.productsNone
            : TEXT.productsFound(results.length);
  // Enter in the search box picks nothing and must not send the form.
  const noSubmit = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') e.preventDefault();
  };

  return (
    <fieldset className="promo-scope-group">
      <legend>{TEXT.products}</legend>
      {chosen.length === 0 ? (
        <p className="muted">{TEXT.productsNoneChosen}</p>
      ) : (
        <ul className="promo-chips" aria-label={TEXT.productsChosen}>
          {chosen.map((p) => (
            <li key={p.id} className="promo-chip">
              <span>{p.name}</span>
              <button
                type="button"
                className="btn btn-outline btn-sm"
                aria-label={TEXT.removeProduct(p.name)}
                onClick={() => onChange(chosen.filter((c) => c.id !== p.id))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <label className="field">
        <span>{TEXT.productsSearch}</span>
        <input className="input" type="search" autoComplete="off" value={query} onChange={(e) => setQuery(e.target.value)} onKeyDown={noSubmit} />
      </label>
      <p className="muted" role="status">
        {status}
      </p>
      {results && results.length > 0 && !searching && (
        <ul className="promo-results" aria-label={TEXT.productsResultsLabel}>
          {results.map((p) => {
            const taken = chosen.some((c) => c.id === p.id);
            return (
              <li key={p.id}>
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  disabled={taken}
                  onClick={() => onChange([...chosen, p])}
                  aria-label={TEXT.addProduct(p.name)}
                >
                  {p.name}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}

/** The scope's fieldset: the lists to pick from, or why they are not there. */
export default function PromotionScopePicker({
  options,
  failed,
  scope,
  products,
  onChange,
  onProductsChange,
}: {
  options: ScopeOptions | null;
  failed: boolean;
  scope: Scope;
  products: readonly ScopeProduct[];
  onChange: (scope: Scope) => void;
  onProductsChange: (products: ScopeProduct[]) => void;
}) {
  const [filter, setFilter] = useState('');
  const hintId = useId();

  if (failed) {
    return (
      <p className="acct-error" role="alert">
        {TEXT.scopeLoadFailed}
      </p>
    );
  }
  if (!options) return <p role="status">{TEXT.scopeLoading}</p>;

  const chosenFranchises = options.franchises.filter((f) => scope.franchiseIds.includes(f.id));
  const shownFranchises = chosenFranchises.length > 0 ? chosenFranchises : options.franchises;
  const needle = fold(filter.trim());
  // The chosen expansions stay in view whatever the filters, so they can be taken off.
  const expansions = options.expansions.filter(
    (x) => scope.expansionIds.includes(x.id) || (shownFranchises.some((f) => f.id === x.franchiseId) && (!needle || fold(x.name).includes(needle))),
  );

  return (
    <>
      <fieldset className="promo-scope-group">
        <legend>{TEXT.franchises}</legend>
        <Checks
          options={options.franchises}
          chosen={scope.franchiseIds}
          onChange={(id, on) => onChange({ ...scope, franchiseIds: toggle(scope.franchiseIds, id, on) })}
        />
      </fieldset>
      <fieldset className="promo-scope-group">
        <legend>{TEXT.productTypes}</legend>
        <ByFranchise
          franchises={options.franchises}
          options={options.productTypes.filter((t) => scope.productTypeIds.includes(t.id) || shownFranchises.some((f) => f.id === t.franchiseId))}
          chosen={scope.productTypeIds}
          onChange={(id, on) => onChange({ ...scope, productTypeIds: toggle(scope.productTypeIds, id, on) })}
        />
      </fieldset>
      <fieldset className="promo-scope-group">
        <legend>{TEXT.expansions}</legend>
        <p className="muted" id={hintId}>
          {TEXT.expansionsHint}
        </p>
        <label className="field">
          <span>{TEXT.expansionsFilter}</span>
          <input
            className="input"
            type="search"
            autoComplete="off"
            aria-describedby={hintId}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') e.preventDefault();
            }}
          />
        </label>
        {expansions.length === 0 ? (
          <p className="muted">{TEXT.expansionsNone}</p>
        ) : (
          <div className="promo-scope-scroll">
            <ByFranchise
              franchises={options.franchises}
              options={expansions}
              chosen={scope.expansionIds}
              onChange={(id, on) => onChange({ ...scope, expansionIds: toggle(scope.expansionIds, id, on) })}
            />
          </div>
        )}
      </fieldset>
      <ProductPicker chosen={products} onChange={onProductsChange} />
    </>
  );
}
