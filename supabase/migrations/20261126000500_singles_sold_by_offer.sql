-- A single card is sold by offer only.
--
-- A product with a printing (public.card_printings) is a single card: what a shopper buys is one of
-- its copies (public.card_offers), each with its own price and stock. The product row's own price
-- and stock describe no copy (the demo data fills them with the cheapest copy and the sum of all
-- copies, and sales of offers never change them), so an order line of a single without an offer
-- would sell a unit that is not on any shelf at a price nobody set for it. create_order accepts
-- such a line (an item without "offer_id" is a product line); this trigger refuses it before the
-- line is written, and the whole order with it (create_order runs in one transaction). Products
-- without a printing (sealed products) are sold as before.

create or replace function public.order_items_single_needs_offer()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_name text;
begin
  if new.offer_id is null and exists (select 1 from public.card_printings c where c.product_id = new.product_id) then
    select p.name into v_name from public.products p where p.id = new.product_id;
    raise exception 'Elige la condición, el idioma y el acabado de «%» en su página.', coalesce(v_name, new.product_id)
      using errcode = 'P0001', detail = 'choose_offer:' || new.product_id;
  end if;
  return new;
end;
$$;

create trigger order_items_single_needs_offer
  before insert on public.order_items
  for each row execute function public.order_items_single_needs_offer();
