-- The demo orders that used MEKACAT10 or ENVIOGRATIS (demo_accounts.sql, made by scripts/seed.ts)
-- count as uses of those promotions, as create_order records a use: one promotion_redemptions row
-- per order with the discount it gave and the shipping it waived (the $99.00 of an order under
-- $2,999.00 for ENVIOGRATIS), so 'Promociones' shows their uses, discount given and sales. A
-- cancelled or failed unpaid order's use is returned, as the trigger does. Runs once; an order that
-- already has its row is left as it is.
insert into public.promotion_redemptions (promotion_id, order_id, user_id, code, discount, shipping_waived, returned_at, created_at)
select p.id,
       o.id,
       o.user_id,
       p.code,
       o.discount,
       case when p.type = 'shipping' and o.subtotal < 2999.00 then 99.00 else 0 end,
       case when o.status in ('Cancelado', 'Fallido') then o.created_at end,
       o.created_at
  from public.orders o
  join public.promotions p on upper(p.code) = upper(o.coupon_code)
 where o.id::text like 'c0ffee00-%'
   and p.code in ('MEKACAT10', 'ENVIOGRATIS')
order by o.created_at
on conflict (order_id) do nothing;
