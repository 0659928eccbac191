import { useState, type FormEvent } from 'react';
import { expansionsOf, franchises, typesOf, expansions as allExpansions, productTypes as allTypes } from '~/domain/catalog.ts';
import { formatCentavos } from '~/domain/money.ts';
import { discountPercent } from '~/domain/products.ts';
import { isSinglesType } from '~/domain/catalog.ts';
import ProductEditDialog from './ProductEditDialog.tsx';
import SinglesDialog from './SinglesEditor.tsx';
import { loadProducts, PRODUCTS_PAGE_SIZE, type AdminListProduct, type AdminProduct, type ProductFilter } from '~/data/admin.ts';
import { Pager } from '../ui/Pager.tsx';
import { AdminTable } from './AdminTable.tsx';
import { usePagedList } from '../ui/use-paged-list.ts';
import { formatCount } from '~/domain/counts.ts';
import { ADMIN_PRODUCTS_TEXT } from '~/i18n/admin.ts';

const EMPTY: ProductFilter = { search: '', franchise: '', type: '', expansion: '', flag: '', page: 1 };

/** The product table's columns. */
const PRODUCT_COLUMNS = [
  { label: ADMIN_PRODUCTS_TEXT.product },
  { label: ADMIN_PRODUCTS_TEXT.price, num: true },
  { label: ADMIN_PRODUCTS_TEXT.stock, num: true },
  { label: ADMIN_PRODUCTS_TEXT.status },
  { label: ADMIN_PRODUCTS_TEXT.actions, hidden: true },
];

const FLAGS = [
  { id: '', label: ADMIN_PRODUCTS_TEXT.all },
  { id: 'sin-stock', label: ADMIN_PRODUCTS_TEXT.flagNoStock },
  { id: 'poco-stock', label: ADMIN_PRODUCTS_TEXT.flagLowStock },
  { id: 'preventa', label: ADMIN_PRODUCTS_TEXT.flagPreorder },
  { id: 'no-disponible', label: ADMIN_PRODUCTS_TEXT.flagUnavailable },
];

/** 'Productos': every product, searchable and filterable, 25 per page, each editable in a dialog. */
export default function ProductsSection() {
  const list = usePagedList({
    read: loadProducts,
    empty: EMPTY,
    initial: () => {
      const params = new URLSearchParams(window.location.search);
      return { ...EMPTY, search: params.get('q') ?? '', flag: params.get('filtro') ?? '' };
    },
    pageSize: PRODUCTS_PAGE_SIZE,
  });
  const { result, setResult } = list;
  const [editing, setEditing] = useState<AdminProduct | null>(null);
  const [single, setSingle] = useState<AdminListProduct | null>(null);
  const [notice, setNotice] = useState('');

  return (
    <section aria-labelledby="adm-products-title">
      <h1 id="adm-products-title">{ADMIN_PRODUCTS_TEXT.title}</h1>
      <p>
        <a className="btn btn-accent" href="/admin/add">
          {ADMIN_PRODUCTS_TEXT.add}
        </a>
      </p>
      <ProductFilters draft={list.draft} onChange={list.setDraft} onApply={list.apply} />
      {notice && (
        <p className="acct-note acct-note-success" role="status">
          {notice}
        </p>
      )}
      {list.failed ? (
        <p className="acct-error" role="alert">
          {ADMIN_PRODUCTS_TEXT.loadFailed}
        </p>
      ) : !result ? (
        <p role="status">{ADMIN_PRODUCTS_TEXT.loading}</p>
      ) : result.products.length === 0 ? (
        <p role="status">{ADMIN_PRODUCTS_TEXT.none}</p>
      ) : (
        <>
          <p className="muted" role="status">
            {ADMIN_PRODUCTS_TEXT.count(result.total, formatCount(result.total))}
          </p>
          <ProductsTable products={result.products} onEdit={setEditing} onEditSingle={setSingle} />
          <Pager className="adm-pager" label={ADMIN_PRODUCTS_TEXT.pagerLabel} pager={list.pager} onPage={list.goTo} />
        </>
      )}
      {editing && (
        <ProductEditDialog
          product={editing}
          onClose={() => setEditing(null)}
          onSaved={(saved, message) => {
            setEditing(null);
            setNotice(message);
            setResult((current) =>
              current ? { ...current, products: current.products.map((p) => (p.id === saved.id ? { ...saved, offers: p.offers } : p)) } : current,
            );
          }}
        />
      )}
      {single && (
        <SinglesDialog
          product={single}
          onClose={() => {
            setSingle(null);
            // The list shows the offers' prices and stock: read them again.
            void list.reload();
          }}
        />
      )}
    </section>
  );
}

interface FiltersProps {
  draft: ProductFilter;
  onChange: (draft: ProductFilter) => void;
  onApply: (event: FormEvent) => void;
}

/** Search, franchise, type, expansion and 'Mostrar' filters (types and expansions follow the franchise). */
function ProductFilters({ draft, onChange, onApply }: FiltersProps) {
  const types = draft.franchise ? typesOf(draft.franchise) : allTypes;
  const expansionOptions = draft.franchise ? expansionsOf(draft.franchise) : allExpansions;
  return (
    <form className="adm-filters" onSubmit={onApply} role="search" aria-label={ADMIN_PRODUCTS_TEXT.searchLabel}>
      <div className="field">
        <label htmlFor="adm-product-search">{ADMIN_PRODUCTS_TEXT.search}</label>
        <input
          id="adm-product-search"
          className="input"
          type="search"
          enterKeyHint="search"
          value={draft.search}
          onChange={(e) => onChange({ ...draft, search: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="adm-product-franchise">{ADMIN_PRODUCTS_TEXT.franchise}</label>
        <select
          id="adm-product-franchise"
          className="input"
          value={draft.franchise}
          onChange={(e) => onChange({ ...draft, franchise: e.target.value, type: '', expansion: '' })}
        >
          <option value="">{ADMIN_PRODUCTS_TEXT.allFeminine}</option>
          {franchises.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="adm-product-type">{ADMIN_PRODUCTS_TEXT.type}</label>
        <select id="adm-product-type" className="input" value={draft.type} onChange={(e) => onChange({ ...draft, type: e.target.value })}>
          <option value="">{ADMIN_PRODUCTS_TEXT.all}</option>
          {types.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="adm-product-expansion">{ADMIN_PRODUCTS_TEXT.expansion}</label>
        <select id="adm-product-expansion" className="input" value={draft.expansion} onChange={(e) => onChange({ ...draft, expansion: e.target.value })}>
          <option value="">{ADMIN_PRODUCTS_TEXT.allFeminine}</option>
          {expansionOptions.map((x) => (
            <option key={x.id} value={x.id}>
              {x.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="adm-product-flag">{ADMIN_PRODUCTS_TEXT.show}</label>
        <select id="adm-product-flag" className="input" value={draft.flag} onChange={(e) => onChange({ ...draft, flag: e.target.value })}>
          {FLAGS.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </select>
      </div>
      <div className="adm-actions">
        <button type="submit" className="btn btn-primary">
          {ADMIN_PRODUCTS_TEXT.filter}
        </button>
      </div>
    </form>
  );
}

interface TableProps {
  products: AdminListProduct[];
  onEdit: (product: AdminProduct) => void;
  onEditSingle: (product: AdminListProduct) => void;
}

/** The page of products, each with its price, stock, state and 'Editar'; a single card with its offers' prices and stock and 'Carta y ofertas'. */
function ProductsTable({ products, onEdit, onEditSingle }: TableProps) {
  return (
    <AdminTable label={ADMIN_PRODUCTS_TEXT.listLabel} columns={PRODUCT_COLUMNS}>
      {products.map((p) => {
        const percent = discountPercent(p);
        const stock = p.offers ? p.offers.stock : p.stock;
        return (
          <tr key={p.id} data-testid="admin-product-row" data-product-id={p.id}>
            <td>
              <a href={`/product/${encodeURIComponent(p.id)}`}>{p.name}</a>
              <br />
              <span className="muted">{p.id}</span>
            </td>
            <td className="num" data-label={ADMIN_PRODUCTS_TEXT.price}>
              {p.offers ? <OffersPrice offers={p.offers} /> : formatCentavos(p.priceCentavos)}
              {!p.offers && percent !== null && (
                <>
                  <br />
                  <span className="badge badge-danger">-{percent}%</span>
                </>
              )}
            </td>
            <td className="num" data-label={ADMIN_PRODUCTS_TEXT.stock}>
              {stock}
              {p.offers && <span className="muted"> {ADMIN_PRODUCTS_TEXT.inOffers}</span>}
            </td>
            <td>
              {!p.available && <span className="badge badge-danger">{ADMIN_PRODUCTS_TEXT.unavailable}</span>}{' '}
              {p.preorder && <span className="badge badge-info">{ADMIN_PRODUCTS_TEXT.preorder}</span>}{' '}
              {stock === 0 && <span className="badge badge-warning">{ADMIN_PRODUCTS_TEXT.noStock}</span>}
              {p.available && !p.preorder && stock > 0 && <span className="badge badge-success">{ADMIN_PRODUCTS_TEXT.onSale}</span>}
            </td>
            <td>
              <button type="button" className="btn btn-outline" onClick={() => onEdit(p)}>
                {ADMIN_PRODUCTS_TEXT.edit}
                <span className="visually-hidden"> {p.name}</span>
              </button>
              {isSinglesType(p.product_type_id) && (
                <>
                  {' '}
                  <button type="button" className="btn btn-outline" onClick={() => onEditSingle(p)}>
                    {ADMIN_PRODUCTS_TEXT.singleOffers}
                    <span className="visually-hidden"> {ADMIN_PRODUCTS_TEXT.ofProduct(p.name)}</span>
                  </button>
                </>
              )}
            </td>
          </tr>
        );
      })}
    </AdminTable>
  );
}

/** A single's price in the list: its cheapest offer ('Desde $1,200.00'), or that it has none yet. */
function OffersPrice({ offers }: { offers: NonNullable<AdminListProduct['offers']> }) {
  if (offers.fromCentavos === null) return <span className="muted">{ADMIN_PRODUCTS_TEXT.noOffers}</span>;
  return (
    <>
      {offers.count > 1 ? ADMIN_PRODUCTS_TEXT.fromPrice : ''}
      {formatCentavos(offers.fromCentavos)}
      <br />
      <span className="muted">{ADMIN_PRODUCTS_TEXT.offers(offers.count)}</span>
    </>
  );
}
