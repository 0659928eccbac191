-- A Mexican address may leave the city empty (the form asks for it as optional: the municipio or
-- alcaldía is what the courier needs), so the city may be blank when the municipality is given.
-- Addresses without a municipality (other countries, and Mexican ones saved before the Mexican
-- parts) still need a city, as before; the 100-character limit stays for all.

alter table public.addresses drop constraint addresses_city_check;
alter table public.addresses
  add constraint addresses_city_check check (
    length(btrim(city)) <= 100 and (length(btrim(city)) >= 1 or municipality is not null)
  );
