-- A drop's rush: when hundreds of shoppers ask for the same product at the same instant,
-- create_order takes the product's row lock for each of them, one after the other, also to refuse
-- them once nothing is left. create_order_unless_sold_out answers those without the lock:
--
--   create_order_unless_sold_out(items, coupon_code, waitlist)
--     reads, without locking, the products of the cart's plain lines (a line with an offer_id, of
--     a product not available or in a published preorder campaign, is left to create_order) and
--     refuses at once
--       - a product not on sale yet (on_sale_at in the future), as the order_items_on_sale trigger
--         would after the lock (same message, detail 'unavailable:<id>');
--       - a product whose stock cannot cover its units in the cart while no expired reservation
--         holds units of it (create_order would put those back first), with 'Agotado: …'
--         (detail 'out_of_stock:<id>', hint the stock read, as create_order's refusal);
--     otherwise it returns create_order(items, coupon_code, waitlist): the sale itself, its locks,
--     checks and refusals are create_order's, unchanged.
--
-- Fair: a shopper is refused here only when create_order, taking the lock at that same instant,
-- would have refused them too (the stock read is the last committed one; units put back later by
-- a cancellation are sold to whoever asks after). Those who pass are served in lock order, as
-- before. The same check at the top of create_order itself (before cancel_expired_orders and the
-- locks) would give every caller of create_order this path.

create function public.create_order_unless_sold_out(items jsonb, coupon_code text default null, waitlist boolean default false)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_line record;
begin
  if (select auth.uid()) is not null and jsonb_typeof(items) = 'array' and jsonb_array_length(items) between 1 and 50 then
    for v_line in
      select p.id, p.name, p.stock, p.on_sale_at, l.quantity
        from (
          -- Well-formed plain lines only (whole quantities of 1 to 10000); create_order refuses the rest.
          select q.product_id, sum(q.quantity) as quantity
            from jsonb_array_elements(items) e
            cross join lateral (
              select case when jsonb_typeof(e.value) = 'object' and jsonb_typeof(e.value -> 'product_id') = 'string'
                               and coalesce(jsonb_typeof(e.value -> 'offer_id'), 'null') = 'null'
                               and jsonb_typeof(e.value -> 'quantity') = 'number'
                          then e.value ->> 'product_id' end as product_id,
                     case when jsonb_typeof(e.value) = 'object' and jsonb_typeof(e.value -> 'quantity') = 'number'
                          then (e.value ->> 'quantity')::numeric end as quantity
            ) q
           where q.product_id is not null and q.quantity between 1 and 10000 and q.quantity = trunc(q.quantity)
           group by q.product_id
        ) l
        join public.products p on p.id = l.product_id
       where p.available
         and not exists (select 1 from public.preorder_campaigns c where c.product_id = p.id and c.offer_id is null and c.published)
       order by p.id
    loop
      if v_line.on_sale_at is not null and v_line.on_sale_at > now() then
        raise exception '«%» aún no está a la venta: sale el % (hora del centro de México).',
          v_line.name, to_char(v_line.on_sale_at at time zone 'America/Mexico_City', 'DD/MM/YYYY "a las" HH24:MI')
          using errcode = 'P0001', detail = 'unavailable:' || v_line.id, hint = v_line.on_sale_at::text;
      end if;
      if v_line.quantity > v_line.stock and not exists (
        select 1 from public.orders o join public.order_items i on i.order_id = o.id
         where o.status = 'Pendiente' and o.expires_at is not null and o.expires_at <= now()
           and i.product_id = v_line.id
      ) then
        raise exception 'Agotado: ya no quedan unidades de «%».', v_line.name
          using errcode = 'P0001', detail = 'out_of_stock:' || v_line.id, hint = v_line.stock::text;
      end if;
    end loop;
  end if;
  return public.create_order(items, coupon_code, waitlist);
end;
$$;
comment on function public.create_order_unless_sold_out(jsonb, text, boolean) is
  'create_order, refusing at once (no lock) a product not on sale yet or sold out with no expired reservation to put back.';
revoke all on function public.create_order_unless_sold_out(jsonb, text, boolean) from public, anon, service_role;
grant execute on function public.create_order_unless_sold_out(jsonb, text, boolean) to authenticated;
