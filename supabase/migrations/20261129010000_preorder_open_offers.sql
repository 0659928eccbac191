-- Preorders of a single's offer (a copy of a card whose set is not out yet): what the offer
-- picker, the cart and checkout count as such an offer's units while its campaign is open, and its
-- release date. The shelf holds none of it (a preorder line takes no stock), so these replace the
-- offer's stock: the units one order may still take, the campaign's per-order limit capped by what
-- the allocation leaves (an uncapped campaign: the per-order limit). create_order already sells
-- such a line as a preorder line (20261129002100_preorder_orders.sql); this only reads.
create function public.preorder_open_offers(p_product_ids text[])
returns table (product_id text, offer_id uuid, release_date date, remaining integer)
language sql
stable
security definer
set search_path = ''
as $$
  select c.product_id, c.offer_id, c.release_date,
         case when c.allocation = 0 then c.per_order_limit
              else least(c.per_order_limit, greatest(c.allocation - public.preorder_units_taken(c.id), 0)) end
    from public.preorder_campaigns c
    join public.card_offers o on o.id = c.offer_id and o.product_id = c.product_id
   where c.product_id = any (p_product_ids[1:200]) and c.offer_id is not null and c.published
     and now() >= c.opens_at and now() < c.closes_at
   order by c.product_id, c.offer_id;
$$;
comment on function public.preorder_open_offers(text[]) is
  'Offers of these products in an open, published preorder campaign: release date and the units one order may still take.';
revoke all on function public.preorder_open_offers(text[]) from public;
grant execute on function public.preorder_open_offers(text[]) to anon, authenticated, service_role;
