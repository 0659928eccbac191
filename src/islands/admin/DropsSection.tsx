import { useCallback, useEffect, useState } from 'react';
import { loadUpcomingDrops, type UpcomingDrop } from '~/data/admin/drops.ts';
import { dropTimeParts } from '~/domain/drops.ts';
import { DROP_PRODUCT_TEXT, DROP_SCHEDULE_TEXT as TEXT } from '~/i18n/drops.ts';
import { AdminTable, type Column } from './AdminTable.tsx';

const COLUMNS: Column[] = [
  { label: TEXT.product },
  { label: TEXT.when },
  { label: TEXT.stock, num: true },
  { label: TEXT.limit, num: true },
  { label: TEXT.available },
];

/** 'Lanzamientos': the upcoming drops, soonest first, with their time (Mexico City), stock and limit. */
export default function DropsSection() {
  const [drops, setDrops] = useState<UpcomingDrop[] | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(() => {
    setFailed(false);
    setDrops(null);
    void loadUpcomingDrops().then((list) => {
      if (list) setDrops(list);
      else setFailed(true);
    });
  }, []);
  useEffect(() => load(), [load]);

  return (
    <section aria-labelledby="adm-drops-title">
      <h1 id="adm-drops-title">{TEXT.title}</h1>
      <p className="muted">{TEXT.intro}</p>
      {failed ? (
        <div className="acct-error" role="alert">
          <p>{TEXT.loadFailed}</p>
          <button type="button" className="btn btn-outline" onClick={load}>
            {TEXT.retry}
          </button>
        </div>
      ) : !drops ? (
        <p role="status">{TEXT.loading}</p>
      ) : drops.length === 0 ? (
        <p>{TEXT.empty}</p>
      ) : (
        <AdminTable label={TEXT.tableLabel} columns={COLUMNS}>
          {drops.map((drop) => (
            <tr key={drop.id} data-product-id={drop.id}>
              <td>
                <a href={`/product/${encodeURIComponent(drop.id)}`}>{drop.name}</a>
                <br />
                <span className="muted">{drop.id}</span>
              </td>
              <td data-label={TEXT.when}>
                <time dateTime={drop.onSaleAt}>{DROP_PRODUCT_TEXT.onSaleAt(dropTimeParts(Date.parse(drop.onSaleAt)))}</time>
              </td>
              <td className="num" data-label={TEXT.stock}>
                {drop.stock ?? '—'}
              </td>
              <td className="num" data-label={TEXT.limit}>
                {drop.limitPerCustomer}
              </td>
              <td data-label={TEXT.available}>{drop.available ? TEXT.yes : TEXT.no}</td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}
