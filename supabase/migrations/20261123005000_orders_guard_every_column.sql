-- The order guard, once for every column: a shopper (anon or authenticated) may change nothing on
-- an order but its shipping address. Earlier migrations listed the protected columns one by one
-- and each new column meant copying the list again; comparing the whole row (less the address and
-- updated_at, which its own trigger sets) protects every column a later migration adds as well.
create or replace function public.orders_guard_update() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated')
     and (to_jsonb(new) - 'shipping_address_id' - 'updated_at') is distinct from (to_jsonb(old) - 'shipping_address_id' - 'updated_at')
  then
    raise exception 'Solo se puede cambiar la dirección de envío de un pedido.' using errcode = '42501';
  end if;
  return new;
end
$$;
revoke execute on function public.orders_guard_update() from public, anon, authenticated;
