-- A drop's limit per delivery address (20261129003000_drops_admin_and_address_limit.sql) also
-- holds when an address is edited after it was attached: changing the street, postal code or
-- country of an address that a pending order with a drop product points at is judged as if the
-- order were attached to the new address, and refused the same way (detail
-- 'drop_address_limit:<product id>'). So a shopper cannot attach one address and then edit it into
-- another account's; the check at payment (mark_order_paid) remains for what slips between, such
-- as an order paid after its reservation expired.

create function public.addresses_drop_address_limit() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_key text := public.drop_address_key(new.street, new.zip, new.country);
  v_order uuid;
begin
  if v_key = public.drop_address_key(old.street, old.zip, old.country) then
    return new;
  end if;
  for v_order in
    select o.id from public.orders o
     where o.shipping_address_id = new.id
       and o.status = 'Pendiente'
       and (o.expires_at is null or o.expires_at > now())
     order by o.id
  loop
    perform public.check_drop_address_limit(v_order, v_key);
  end loop;
  return new;
end;
$$;

revoke all on function public.addresses_drop_address_limit() from public, anon, authenticated;

create trigger addresses_drop_address_limit before update of street, zip, country on public.addresses
  for each row execute function public.addresses_drop_address_limit();
