-- The demo buylist (docs/buylist.md): 60 printings the shop buys. Monkey.D.Luffy OP05-119 at an NM
-- price of its own ($2,400.00, 8 wanted); 59 more singles with an NM copy, taken in turn from each
-- franchise by product id, priced by the default rule (50 % of their cheapest NM copy), a few with
-- a price of their own, wanting 3 to 11 copies each.
insert into public.buylist_entries (product_id, wanted, nm_price)
values ('op-single-op-05-monkey-d-luffy-op05-119', 8, 2400.00)
on conflict do nothing;

insert into public.buylist_entries (product_id, wanted, nm_price, limit_per_shopper)
select c.product_id,
       3 + (c.n % 9),
       case when c.n % 7 = 0 then round(c.nm_min * 0.55, 0) end,
       case when c.n % 10 = 0 then 2 end
  from (
    select f.product_id, f.nm_min, row_number() over (order by f.turn, f.franchise_id, f.product_id) as n
      from (
        select cp.product_id, p.franchise_id, min(o.price) as nm_min,
               row_number() over (partition by p.franchise_id order by cp.product_id) as turn
          from public.card_printings cp
          join public.products p on p.id = cp.product_id
          join public.card_offers o on o.product_id = cp.product_id
         where o.grading_company is null and o.condition = 'NM' and o.price > 0
           and cp.product_id <> 'op-single-op-05-monkey-d-luffy-op05-119'
         group by cp.product_id, p.franchise_id
      ) f
  ) c
 where c.n <= 59
on conflict do nothing;
