/**
 * 'Demanda': how many shoppers wait for each sold-out product or offer ('Avísame cuando llegue'),
 * most wanted first, with the stock it has now, so the shop knows what to restock first.
 */
import { useEffect, useState } from 'react';
import { loadStockDemand, type DemandLine } from '~/data/stock-alerts.ts';
import { formatOrderDate } from '~/domain/orders.ts';
import { productPath } from '~/domain/routes.ts';
import { ADMIN_DEMAND_TEXT as TEXT } from '~/i18n/alerts.ts';
import { AdminTable } from './AdminTable.tsx';

export default function DemandSection() {
  const [lines, setLines] = useState<DemandLine[] | null>(null);
  const [failed, setFailed] = useState(false);

  const read = async () => {
    setFailed(false);
    const result = await loadStockDemand().catch((error: unknown) => ({ data: null, error }));
    if (result.error) setFailed(true);
    else setLines(result.data);
  };
  useEffect(() => {
    void read();
  }, []);

  return (
    <section aria-labelledby="adm-demand-title">
      <h1 id="adm-demand-title">{TEXT.heading}</h1>
      <p>{TEXT.intro}</p>
      {failed ? (
        <div className="acct-actions">
          <p className="acct-error" role="alert">
            {TEXT.failed}
          </p>
          <button type="button" className="btn btn-outline" onClick={() => void read()}>
            {TEXT.retry}
          </button>
        </div>
      ) : !lines ? (
        <p role="status">{TEXT.loading}</p>
      ) : lines.length === 0 ? (
        <p className="muted">{TEXT.empty}</p>
      ) : (
        <AdminTable
          label={TEXT.heading}
          columns={[
            { label: TEXT.product },
            { label: TEXT.offer },
            { label: TEXT.waiting, num: true },
            { label: TEXT.since },
            { label: TEXT.stock, num: true },
          ]}
        >
          {lines.map((line) => (
            <tr key={`${line.productId}:${line.offerLabel ?? ''}`} data-testid="demand-line">
              <td data-label={TEXT.product}>
                <a href={productPath(line.productId)}>{line.name}</a>
              </td>
              <td data-label={TEXT.offer}>{line.offerLabel ?? TEXT.wholeProduct}</td>
              <td data-label={TEXT.waiting} className="num">
                <strong>{line.waiting}</strong>
              </td>
              <td data-label={TEXT.since}>{formatOrderDate(line.oldest)}</td>
              <td data-label={TEXT.stock} className="num">
                {line.available ? line.stock : TEXT.hidden}
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}
