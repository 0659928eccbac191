-- What the buy box and the cart count as a preorder product's units while its campaign is open:
-- the units the allocation still leaves (null: no cap), instead of the stock on the shelf (a
-- preorder line takes none). Products without an open campaign are not listed.
create function public.preorder_open_stock(p_product_ids text[])
returns table (product_id text, remaining integer)
language sql
stable
security definer
set search_path = ''
as $$
  select c.product_id,
         case when c.allocation = 0 then null
              else greatest(c.allocation - public.preorder_units_taken(c.id), 0) end
    from public.preorder_campaigns c
   where c.product_id = any (p_product_ids[1:200]) and c.offer_id is null and c.published
     and now() >= c.opens_at and now() < c.closes_at;
$$;
revoke all on function public.preorder_open_stock(text[]) from public;
grant execute on function public.preorder_open_stock(text[]) to anon, authenticated, service_role;
