-- A drop's limit per delivery address (20261129003000_drops_admin_and_address_limit.sql) judged
-- without normalising every order's address on every check.
--
-- check_drop_address_limit computed order_drop_address_key (two regular expressions, a translate
-- and a lookup of the address, through three function calls) for every live order of the product,
-- each time an order was pointed at an address or paid: in a drop of 100 units, the winners'
-- address updates took 7 ms each and more than half of the database's CPU of the rush, and a drop
-- of n units cost n² normalisations. The keys are now stored where their inputs are:
--
--   addresses.drop_key          the address's key (street with its exterior number, postal code,
--                               country), generated from the row.
--   orders.shipping_drop_key    the key of the order's address copy (shipping_address, when it has
--                               a street), generated from the row; null otherwise.
--
-- Both are generated columns: nobody can write them, and they follow every edit of their row. The
-- keys are the same text as before: drop_address_key leaves out everything but letters and digits,
-- so the street and the exterior number joined without the space give the key concat_ws(' ', …)
-- gave. An order's key is unchanged: a paid (or later) order with a copy is judged by its copy, any
-- other by its chosen address, or its copy when it has no address. check_drop_address_limit reads
-- the stored keys; order_drop_address_key stays for the checks that judge one order.
--
-- A generated column is computed with the privileges of whoever writes the row (a shopper saving an
-- address or attaching it to an order), so drop_address_key, a pure function of its three texts that
-- reads nothing, may now be executed by every request role.
--
-- A generated column reads as null in a BEFORE trigger's NEW row, so the orders guard leaves
-- shipping_drop_key out of its comparison, as it does updated_at: a shopper cannot write it anyway.

grant execute on function public.drop_address_key(text, text, text) to anon, authenticated, service_role;

alter table public.addresses
  add column drop_key text generated always as (
    public.drop_address_key(coalesce(street, '') || coalesce(exterior_number, ''), zip, country)
  ) stored;

comment on column public.addresses.drop_key is
  'The normalised address a drop''s limit per delivery address counts by (drop_address_key of street and exterior number, postal code, country).';

alter table public.orders
  add column shipping_drop_key text generated always as (
    case when shipping_address ? 'street' then
      public.drop_address_key(
        coalesce(shipping_address ->> 'street', '') || coalesce(shipping_address ->> 'exterior_number', ''),
        shipping_address ->> 'zip',
        shipping_address ->> 'country'
      )
    end
  ) stored;

comment on column public.orders.shipping_drop_key is
  'drop_address_key of the order''s address copy (shipping_address), when it has a street.';

create or replace function public.orders_guard_update() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated')
     and (to_jsonb(new) - 'shipping_address_id' - 'updated_at' - 'shipping_drop_key')
         is distinct from (to_jsonb(old) - 'shipping_address_id' - 'updated_at' - 'shipping_drop_key')
  then
    raise exception 'Solo se puede cambiar la dirección de envío de un pedido.' using errcode = '42501';
  end if;
  return new;
end
$$;
revoke execute on function public.orders_guard_update() from public, anon, authenticated;

create or replace function public.check_drop_address_limit(p_order_id uuid, p_key text) returns void
language plpgsql
security definer
set search_path = ''
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
    -- The order_drop_address_key of each live order, from the stored keys.
    select coalesce(sum(i.quantity), 0) into v_elsewhere
      from public.order_items i
      join public.orders o on o.id = i.order_id
      left join public.addresses a on a.id = o.shipping_address_id
     where i.product_id = v_line.product_id
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

revoke all on function public.check_drop_address_limit(uuid, text) from public, anon, authenticated;
