/** How to send the cards to the shop: its address and how to pack them (after submitting, and on the packing slip). */
import { SELL_DONE_TEXT as TEXT, SHOP_RECEIVING_ADDRESS } from '~/i18n/buylist.ts';

export default function ShippingSteps() {
  return (
    <div className="sell-ship">
      <h3>{TEXT.shipTitle}</h3>
      <p>{TEXT.shipTo}</p>
      <address className="sell-address">
        {SHOP_RECEIVING_ADDRESS.map((line) => (
          <span key={line}>{line}</span>
        ))}
      </address>
      <ol>
        {TEXT.pack.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p className="muted">{TEXT.review}</p>
    </div>
  );
}
