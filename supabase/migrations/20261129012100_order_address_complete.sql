-- A Mexican order's address must be one a courier can deliver to before it is paid for.
--
--   shipping_address_gap(jsonb)   the first part an address copy (orders.shipping_address, as
--                                 address_snapshot writes it) lacks, in the address form's order,
--                                 or null: for México (any spelling) calle, número exterior, a
--                                 5-digit postal code, colonia, municipio, estado and a 10-digit
--                                 phone; for other countries the specification's street and city
--                                 (or municipio). src/domain/validation/address.ts has the same rule.
--   orders_shipping_address_complete
--                                 a trigger: a pending order's copy (written when a payment starts)
--                                 is refused while its address lacks a part, with the form's own
--                                 text, detail 'address_incomplete' and the part in the hint. An
--                                 address saved before the Mexican parts were asked therefore cannot
--                                 be paid for until the checkout has completed it. The copy taken
--                                 when the payment is confirmed (mark_order_paid, which also sets
--                                 the status) is never refused: money already taken must settle.

create function public.shipping_address_gap(p_address jsonb) returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when p_address is null or jsonb_typeof(p_address) <> 'object' then 'street'
    when coalesce(btrim(p_address ->> 'street'), '') = '' then 'street'
    when translate(lower(btrim(coalesce(p_address ->> 'country', ''))), 'é', 'e') <> 'mexico' then
      case when coalesce(btrim(p_address ->> 'city'), '') = '' and coalesce(btrim(p_address ->> 'municipality'), '') = '' then 'city' end
    when coalesce(btrim(p_address ->> 'exterior_number'), '') = '' then 'exterior_number'
    when coalesce(btrim(p_address ->> 'zip'), '') !~ '^[0-9]{5}$' then 'zip'
    when coalesce(btrim(p_address ->> 'neighborhood'), '') = '' then 'neighborhood'
    when coalesce(btrim(p_address ->> 'municipality'), '') = '' then 'municipality'
    when coalesce(btrim(p_address ->> 'state'), '') = '' then 'state'
    when coalesce(p_address ->> 'phone', '') !~ '^[0-9]{10}$' then 'phone'
  end
$$;

revoke all on function public.shipping_address_gap(jsonb) from public, anon, authenticated;
grant execute on function public.shipping_address_gap(jsonb) to service_role;

create function public.orders_shipping_address_complete() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_gap text;
begin
  if new.status = 'Pendiente' and new.shipping_address is not null
     and (tg_op = 'INSERT' or new.shipping_address is distinct from old.shipping_address) then
    v_gap := public.shipping_address_gap(new.shipping_address);
    if v_gap is not null then
      raise exception 'Completa tu dirección de envío: %.',
        case v_gap
          when 'street' then 'Calle requerida'
          when 'city' then 'Ciudad requerida'
          when 'exterior_number' then 'Número exterior requerido'
          when 'zip' then 'Código Postal de 5 dígitos'
          when 'neighborhood' then 'Colonia requerida'
          when 'municipality' then 'Municipio o alcaldía requerido'
          when 'state' then 'Estado requerido'
          else 'Teléfono de 10 dígitos'
        end
        using errcode = '23514', detail = 'address_incomplete', hint = v_gap;
    end if;
  end if;
  return new;
end;
$$;

revoke all on function public.orders_shipping_address_complete() from public, anon, authenticated;

create trigger orders_shipping_address_complete before insert or update of shipping_address on public.orders
  for each row execute function public.orders_shipping_address_complete();
