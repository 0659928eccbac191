-- The funding of the card that paid an order, as the card provider reports it on the charge
-- (Stripe: payment_method_details.card.funding): 'credit', 'debit', 'prepaid' or 'unknown'. The
-- factura's forma de pago follows it ('04' tarjeta de crédito, '28' tarjeta de débito). Written
-- by the server with the service role when it settles a card payment, from the provider's own
-- record of the charge (never from the browser); null for every other method and for orders paid
-- before it was recorded. orders_guard_update already refuses any change by a shopper.
alter table public.orders
  add column if not exists card_funding text
    check (card_funding is null or card_funding in ('credit', 'debit', 'prepaid', 'unknown'));

comment on column public.orders.card_funding is
  'Funding of the card that paid (credit, debit, prepaid, unknown) as the card provider reported it; null unless paid by card.';
