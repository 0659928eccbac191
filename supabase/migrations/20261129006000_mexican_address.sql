-- The Mexican address a courier delivers to.
--
--   addresses                 new nullable columns: exterior_number, interior_number, neighborhood
--                             (the colonia), municipality (municipio or alcaldía),
--                             delivery_references (between which streets, the façade, notes for the
--                             courier; at most 200 characters) and phone (10 digits). Existing rows
--                             keep them null: what was typed in street stays there, and the
--                             checkout asks for the missing parts the next time the address is used
--                             for a purchase.
--   addresses_zip_mx          a trigger, not a check: for México the postal code must be exactly 5
--                             digits on every insert and on every update that writes zip or country,
--                             so a new or re-typed address cannot keep a 'C.P. 441', while an old
--                             row with a short postal code still reads, can be chosen, made default
--                             or deleted (those writes do not touch zip or country). Refused with
--                             detail 'zip_mx'. The table's old check (1 to 5 digits) stays for
--                             every country.
--   grants                    authenticated may insert and update the new columns, like the others.
--   address_snapshot          the paid order's copy (orders.shipping_address) carries the new parts
--                             under the same names, with 'references' for delivery_references.
--   drop address key          a drop's limit per delivery address now counts the exterior number
--                             with the street (street and exterior number joined, then normalised as
--                             before): a new address keeps the number apart, an old one has it in
--                             street, and both normalise to the same key ('Av. Reforma 222' and
--                             'Av. Reforma' + '222' are one address). The interior number is left
--                             out on purpose: flats of one building share a delivery door, and an
--                             interior number typed differently must not open a second allowance.
--                             The address trigger now also watches exterior_number.

alter table public.addresses
  add column exterior_number text,
  add column interior_number text,
  add column neighborhood text,
  add column municipality text,
  add column delivery_references text,
  add column phone text,
  add constraint addresses_exterior_number_check check (exterior_number is null or length(btrim(exterior_number)) between 1 and 20),
  add constraint addresses_interior_number_check check (interior_number is null or length(btrim(interior_number)) between 1 and 20),
  add constraint addresses_neighborhood_check check (neighborhood is null or length(btrim(neighborhood)) between 1 and 100),
  add constraint addresses_municipality_check check (municipality is null or length(btrim(municipality)) between 1 and 100),
  add constraint addresses_delivery_references_check check (delivery_references is null or length(delivery_references) <= 200),
  add constraint addresses_phone_check check (phone is null or phone ~ '^[0-9]{10}$');

comment on column public.addresses.exterior_number is 'Número exterior (null on addresses saved before it was asked: then it is part of street).';
comment on column public.addresses.neighborhood is 'Colonia.';
comment on column public.addresses.municipality is 'Municipio o alcaldía.';
comment on column public.addresses.delivery_references is 'Referencias for the courier (at most 200 characters).';
comment on column public.addresses.phone is 'Contact phone for the delivery, 10 digits.';

create function public.addresses_zip_mx() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if btrim(new.country) = 'México' and new.zip !~ '^[0-9]{5}$' then
    raise exception 'Código Postal inválido: en México son 5 dígitos.'
      using errcode = '23514', detail = 'zip_mx';
  end if;
  return new;
end;
$$;

revoke all on function public.addresses_zip_mx() from public, anon, authenticated;

create trigger addresses_zip_mx before insert or update of zip, country on public.addresses
  for each row execute function public.addresses_zip_mx();

grant insert (exterior_number, interior_number, neighborhood, municipality, delivery_references, phone) on table public.addresses to authenticated;
grant update (exterior_number, interior_number, neighborhood, municipality, delivery_references, phone) on table public.addresses to authenticated;

create or replace function public.address_snapshot(address_id uuid) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
           'label', a.label, 'street', a.street, 'exterior_number', a.exterior_number,
           'interior_number', a.interior_number, 'neighborhood', a.neighborhood,
           'municipality', a.municipality, 'city', a.city, 'state', a.state,
           'zip', a.zip, 'country', a.country, 'references', a.delivery_references,
           'phone', a.phone)
    from public.addresses a
   where a.id = address_snapshot.address_id
$$;

-- A drop's limit per delivery address: the street with its exterior number ---------------------------

create or replace function public.order_drop_address_key(p_status public.order_status, p_address_id uuid, p_copy jsonb) returns text
language sql
stable
set search_path = ''
as $$
  select case
    when p_status <> 'Pendiente' and p_copy is not null and p_copy ? 'street' then
      public.drop_address_key(concat_ws(' ', p_copy ->> 'street', p_copy ->> 'exterior_number'), p_copy ->> 'zip', p_copy ->> 'country')
    else coalesce(
      (select public.drop_address_key(concat_ws(' ', a.street, a.exterior_number), a.zip, a.country) from public.addresses a where a.id = p_address_id),
      case when p_copy is not null and p_copy ? 'street' then
        public.drop_address_key(concat_ws(' ', p_copy ->> 'street', p_copy ->> 'exterior_number'), p_copy ->> 'zip', p_copy ->> 'country')
      end
    )
  end
$$;

create or replace function public.addresses_drop_address_limit() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_key text := public.drop_address_key(concat_ws(' ', new.street, new.exterior_number), new.zip, new.country);
  v_order uuid;
begin
  if v_key = public.drop_address_key(concat_ws(' ', old.street, old.exterior_number), old.zip, old.country) then
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

drop trigger addresses_drop_address_limit on public.addresses;
create trigger addresses_drop_address_limit before update of street, exterior_number, zip, country on public.addresses
  for each row execute function public.addresses_drop_address_limit();
