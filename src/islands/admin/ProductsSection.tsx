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

const EMPTY: ProductFilter = { search: '', franchise: '', type: '', expansion: '', flag: '', page: 1 };

/** The product table's columns. */
const PRODUCT_COLUMNS = [
  { label: 'Producto' },
  { label: 'Precio', num: true },
  { label: 'Stock', num: true },
  { label: 'Estado' },
  { label: 'Acciones', hidden: true },
];

const FLAGS = [
  { id: '', label: 'Todos' },
  { id: 'sin-stock', label: 'Sin stock' },
  { id: 'poco-stock', label: 'Poco stock (3 o menos)' },
  { id: 'preventa', label: 'Preventa' },
  { id: 'no-disponible', label: 'No disponible' },
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
      <h1 id="adm-products-title">Productos</h1>
      <p>
        <a className="btn btn-accent" href="/admin/add">
          Registrar nuevo producto
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
          No se pudieron cargar los productos.
        </p>
      ) : !result ? (
        <p role="status">Cargando productos…</p>
      ) : result.products.length === 0 ? (
        <p role="status">No hay productos con esos filtros.</p>
      ) : (
        <>
          <p className="muted" role="status">
            {result.total === 1 ? '1 producto' : `${formatCount(result.total)} productos`}
          </p>
          <ProductsTable products={result.products} onEdit={setEditing} onEditSingle={setSingle} />
          <Pager className="adm-pager" label="Páginas de productos" pager={list.pager} onPage={list.goTo} />
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
    <form className="adm-filters" onSubmit={onApply} role="search" aria-label="Buscar productos">
      <div className="field">
        <label htmlFor="adm-product-search">Buscar por nombre, id o número de carta</label>
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
        <label htmlFor="adm-product-franchise">Franquicia</label>
        <select
          id="adm-product-franchise"
          className="input"
          value={draft.franchise}
          onChange={(e) => onChange({ ...draft, franchise: e.target.value, type: '', expansion: '' })}
        >
          <option value="">Todas</option>
          {franchises.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="adm-product-type">Tipo</label>
        <select id="adm-product-type" className="input" value={draft.type} onChange={(e) => onChange({ ...draft, type: e.target.value })}>
          <option value="">Todos</option>
          {types.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="adm-product-expansion">Expansión</label>
        <select id="adm-product-expansion" className="input" value={draft.expansion} onChange={(e) => onChange({ ...draft, expansion: e.target.value })}>
          <option value="">Todas</option>
          {expansionOptions.map((x) => (
            <option key={x.id} value={x.id}>
              {x.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="adm-product-flag">Mostrar</label>
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
          Filtrar
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
    <AdminTable label="Lista de productos" columns={PRODUCT_COLUMNS}>
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
            <td className="num" data-label="Precio">
              {p.offers ? <OffersPrice offers={p.offers} /> : formatCentavos(p.priceCentavos)}
              {!p.offers && percent !== null && (
                <>
                  <br />
                  <span className="badge badge-danger">-{percent}%</span>
                </>
              )}
            </td>
            <td className="num" data-label="Stock">
              {stock}
              {p.offers && <span className="muted"> en ofertas</span>}
            </td>
            <td>
              {!p.available && <span className="badge badge-danger">No disponible</span>} {p.preorder && <span className="badge badge-info">Preventa</span>}{' '}
              {stock === 0 && <span className="badge badge-warning">Sin stock</span>}
              {p.available && !p.preorder && stock > 0 && <span className="badge badge-success">A la venta</span>}
            </td>
            <td>
              <button type="button" className="btn btn-outline" onClick={() => onEdit(p)}>
                Editar<span className="visually-hidden"> {p.name}</span>
              </button>
              {isSinglesType(p.product_type_id) && (
                <>
                  {' '}
                  <button type="button" className="btn btn-outline" onClick={() => onEditSingle(p)}>
                    Carta y ofertas<span className="visually-hidden"> de {p.name}</span>
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
  if (offers.fromCentavos === null) return <span className="muted">Sin ofertas</span>;
  return (
    <>
      {offers.count > 1 ? 'Desde ' : ''}
      {formatCentavos(offers.fromCentavos)}
      <br />
      <span className="muted">{offers.count === 1 ? '1 oferta' : `${offers.count} ofertas`}</span>
    </>
  );
}
