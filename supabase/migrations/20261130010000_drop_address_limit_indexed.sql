-- The drop's limit per delivery address looks up only the orders that can share the address.
-- check_drop_address_limit summed, for every order pointed at an address during a drop, the units
-- of the product in every live order of it, joined with each order's address, and compared each
-- one's key with the new one: all the drop's orders (up to the units on sale) and a join with the
-- addresses, for each winner. In a drop's rush (docs/benchmarks.md, 'Drop rush') that was 2 ms of
-- the database's time per address update (pg_stat_statements, 100 updates), more than a sale.
--
-- Now the candidates come from two indexes: the orders whose chosen address has the key
-- (addresses.drop_key) and those whose address copy has it (orders.shipping_drop_key), usually
-- none or one; the rule is the same expression as before (a paid order's copy, else its address,
-- else its copy), so the same orders count. Same signature, texts and locks.

create index if not exists addresses_drop_key_idx on public.addresses (drop_key);
create index if not exists orders_shipping_drop_key_idx on public.orders (shipping_drop_key) where shipping_drop_key is not null;

create or replace function public.check_drop_address_limit(p_order_id uuid, p_key text)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $$
declare
  v_line record;
  v_elsewhere bigint;
begin
  if p_key is null then
    return;
  end if;
  for v_line in
    select i.product_id, p.name, p.limit_per_customer, sum(i.quantity)::bigint as quantity
      from public.order_items i
      join public.products p on p.id = i.product_id
     where i.order_id = p_order_id and p.on_sale_at is not null
     group by i.product_id, p.name, p.limit_per_customer
     order by i.product_id
  loop
    perform pg_advisory_xact_lock(hashtextextended('drop_address:' || v_line.product_id || ':' || p_key, 0));
    -- The orders that can have this key: by their chosen address, or by their address copy.
    select coalesce(sum(i.quantity), 0) into v_elsewhere
      from public.orders o
      join public.order_items i on i.order_id = o.id and i.product_id = v_line.product_id
      left join public.addresses a on a.id = o.shipping_address_id
     where o.id in (
             select c.id from public.orders c join public.addresses k on k.id = c.shipping_address_id where k.drop_key = p_key
             union
             select c.id from public.orders c where c.shipping_drop_key = p_key
           )
       and o.id <> p_order_id
       and (
         o.status in ('Pagado', 'Procesando', 'Enviado', 'Completado')
         or (o.status = 'Pendiente' and (o.expires_at is null or o.expires_at > now()))
       )
       and case
             when o.status <> 'Pendiente' and o.shipping_drop_key is not null then o.shipping_drop_key
             else coalesce(a.drop_key, o.shipping_drop_key)
           end = p_key;
    if v_elsewhere + v_line.quantity > v_line.limit_per_customer then
      raise exception 'Ya se alcanzó el límite de este lanzamiento para esta dirección de envío: «%» admite % por domicilio.',
        v_line.name, v_line.limit_per_customer
        using errcode = 'P0001', detail = 'drop_address_limit:' || v_line.product_id;
    end if;
  end loop;
end;
$$;
revoke all on function public.check_drop_address_limit(uuid, text) from public;
grant execute on function public.check_drop_address_limit(uuid, text) to service_role;
