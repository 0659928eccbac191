/** How to send the cards to the shop: its receiving address as the owner publishes it, and how to pack them (after submitting, and on the packing slip). */
import { useEffect, useState } from 'react';
import { loadReceivingAddress } from '~/data/buylist-rules.ts';
import type { ReceivingAddress } from '~/domain/buylist-rules.ts';
import { SELL_DONE_TEXT as TEXT, SHOP_ADDRESS_TEXT as ADDRESS } from '~/i18n/buylist.ts';

/** A 10-digit phone as it is read aloud: '55 1234 5678'. */
function phoneText(phone: string): string {
  return phone.replace(/^(\d{2})(\d{4})(\d{4})$/, '$1 $2 $3');
}

function addressLines(address: ReceivingAddress): string[] {
  return [
    address.name,
    address.street,
    ADDRESS.colonia(address.colonia),
    ADDRESS.place(address.zip, address.municipio, address.state),
    ...(address.phone ? [ADDRESS.phone(phoneText(address.phone))] : []),
    ...(address.hours ? [ADDRESS.hours(address.hours)] : []),
  ];
}

/** `level`: the heading's level under the page's last one (3 after the done page's h2, 2 on the slip under its h1). */
export default function ShippingSteps({ level = 3 }: { level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  const [address, setAddress] = useState<ReceivingAddress | null | 'failed' | 'loading'>('loading');
  useEffect(() => {
    let current = true;
    void loadReceivingAddress().then((loaded) => {
      if (current) setAddress(loaded);
    });
    return () => {
      current = false;
    };
  }, []);

  return (
    <div className="sell-ship">
      <Heading>{TEXT.shipTitle}</Heading>
      {address === 'loading' ? (
        <p role="status">{ADDRESS.loading}</p>
      ) : address === null || address === 'failed' ? (
        <p className="acct-note acct-note-info" data-testid="shop-receiving-address-missing">
          {address === null ? ADDRESS.missing : ADDRESS.loadFailed}
        </p>
      ) : (
        <>
          <p>{TEXT.shipTo}</p>
          <address className="sell-address" data-testid="shop-receiving-address">
            {addressLines(address).map((line) => (
              <span key={line}>{line}</span>
            ))}
          </address>
        </>
      )}
      <ol>
        {TEXT.pack.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p className="muted">{TEXT.review}</p>
    </div>
  );
}
