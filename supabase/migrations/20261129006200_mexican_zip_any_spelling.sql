-- The 5-digit rule for a Mexican postal code (addresses_zip_mx, 20261129006000) held only for the
-- country written exactly 'México'; a write through the API with 'mexico' or 'MÉXICO' escaped it,
-- although the drop limit's address key already reads those as México. Now any capitalisation,
-- with or without the accent, is México.

create or replace function public.addresses_zip_mx() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if translate(lower(btrim(new.country)), 'é', 'e') = 'mexico' and new.zip !~ '^[0-9]{5}$' then
    raise exception 'Código Postal inválido: en México son 5 dígitos.'
      using errcode = '23514', detail = 'zip_mx';
  end if;
  return new;
end;
$$;

revoke all on function public.addresses_zip_mx() from public, anon, authenticated;
