/** The products of a stored order. */
import { formatCentavos } from '~/domain/money.ts';
import { resolveImage } from '~/domain/images.ts';
import { supabaseUrl } from '~/data/supabase.ts';
import type { CheckoutOrderLine } from '~/data/checkout.ts';
import { ORDER_LINE_TEXT } from '~/i18n/common.ts';

/** A list of an order's lines: image, name (and a single card's offer under it), quantity and price. */
export default function OrderLines({ lines }: { lines: CheckoutOrderLine[] }) {
  const storage = supabaseUrl();
  return (
    <ul className="order-lines">
      {lines.map((line) => (
        <li key={line.id}>
          {line.image ? <img src={resolveImage(line.image, storage)} alt="" width={48} height={48} loading="lazy" /> : <span className="order-line-img" />}
          <span className="order-line-name">
            {line.name}
            {line.offerLabel && <span className="order-line-offer">{line.offerLabel}</span>}
          </span>
          <span>{ORDER_LINE_TEXT.quantity(line.quantity)}</span>
          <span>{formatCentavos(line.priceCentavos)}</span>
        </li>
      ))}
    </ul>
  );
}
