/** The products of a stored order. */
import { formatCentavos } from '~/domain/money.ts';
import { IMAGE_SLOTS, resolveImage } from '~/domain/images.ts';
import { Picture } from '../ui/Picture.tsx';
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
          {line.image ? (
            <Picture src={resolveImage(line.image, storage)} frame={IMAGE_SLOTS.thumb48} box={[48, 48]} alt="" loading="lazy" />
          ) : (
            <span className="order-line-img" />
          )}
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
