-- What a factura (CFDI 4.0) needs: the shopper's tax data, and the SAT keys of every product.
--
--   tax_profiles          one row per shopper (Datos de facturación): RFC, razón social exactly as
--                         registered (case and accents kept, only trimmed), régimen fiscal (SAT
--                         c_RegimenFiscal), código postal fiscal, uso del CFDI (SAT c_UsoCFDI, 'G03'
--                         Gastos en general by default) and the e-mail invoices go to. Each shopper
--                         reads, writes and deletes only their own row; the checks below are the same
--                         rules the browser applies (src/domain/sat-catalogs.ts), so a row that is
--                         there is one a factura can be issued to.
--   rfc_is_valid          an RFC a shopper may invoice to: SAT's format (4 letters and 13 characters
--                         for a persona física, 3 and 12 for a persona moral), a real date, SAT's
--                         check digit (as the validate-rfc library computes it, with the same few
--                         registered RFCs whose digit does not follow the rule); the generic RFCs
--                         XAXX010101000 (público en general) and XEXX010101000 (extranjero) are
--                         refused: they are for the factura global, never a shopper's tax data.
--   sat_tax_regime_allowed  whether a régimen applies to a persona física (RFC of 13) or moral (12).
--   sat_cfdi_use_allowed  whether a uso del CFDI may be used by a régimen (SAT's c_UsoCFDI table).
--   products.sat_product_key / sat_unit_key
--                         c_ClaveProdServ (8 digits) and c_ClaveUnidad ('H87' pieza by default). A
--                         product left without a product key takes its product type's
--                         (product_types.sat_product_key), and one without a type '60141101'; the
--                         trigger products_sat_keys fills them on every insert and update, and when a
--                         product changes type while it still had the old type's key it takes the
--                         new type's.
--   product_types.sat_product_key
--                         each type's default key: '60141101' (segment 60, family 6014 Juguetes y
--                         juegos, class 601411 Juegos, commodity 'Juegos de cartas') for every type
--                         the shop sells today: sealed product, singles, decks and accessories of a
--                         trading-card game are sold as card-game merchandise. The owner changes a
--                         type's key here and a product's in the back office (admin_save_product).
--   The shipping line's keys (78102203 'Servicios de envío, recogida o entrega de correo', unit E48
--   'Unidad de servicio') are constants of the invoicing domain (src/domain/invoices.ts).

-- The generic RFCs and the check digit --------------------------------------------------------------

/** SAT's check digit of an RFC's first 11 (moral) or 12 (física) characters, as '0'–'9' or 'A'. */
create function public.rfc_check_digit(p_rfc text) returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_chars constant text := '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';
  v_base text := case when length(p_rfc) = 12 then ' ' || p_rfc else p_rfc end;
  v_sum integer := 0;
  v_mod integer;
  i integer;
begin
  v_base := left(v_base, 12);
  for i in 1..12 loop
    v_sum := v_sum + greatest(strpos(v_chars, substr(v_base, i, 1)) - 1, 0) * (14 - i);
  end loop;
  v_mod := (11000 - v_sum) % 11;
  return case v_mod when 10 then 'A' else v_mod::text end;
end
$$;

/** An RFC a shopper may ask facturas for (see the header). */
create function public.rfc_is_valid(p_rfc text) returns boolean
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_date text;
  v_month integer;
  v_day integer;
  v_year integer;
begin
  if p_rfc is null or p_rfc !~ '^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{3}$' then
    return false;
  end if;
  if p_rfc in ('XAXX010101000', 'XEXX010101000') then
    return false;
  end if;
  v_date := substr(p_rfc, length(p_rfc) - 8, 6);
  v_year := 2000 + substr(v_date, 1, 2)::integer;
  v_month := substr(v_date, 3, 2)::integer;
  v_day := substr(v_date, 5, 2)::integer;
  if v_month not between 1 and 12 or v_day < 1
     or v_day > extract(day from make_date(v_year, v_month, 1) + interval '1 month - 1 day') then
    return false;
  end if;
  return right(p_rfc, 1) = public.rfc_check_digit(p_rfc)
      or p_rfc in ('DAA020218JY1', 'EDG811007RB3', 'LIM0011098G0', 'LME060822IH5', 'NFS0103297H5');
end
$$;

-- SAT's catalogues: which régimen a persona física / moral may have, which uso each régimen ------

/** Whether the régimen fiscal applies to the RFC's kind of person (13 characters física, 12 moral). */
create function public.sat_tax_regime_allowed(p_rfc text, p_regime text) returns boolean
language sql
immutable
set search_path = ''
as $$
  select case length(p_rfc)
    when 13 then p_regime in ('605', '606', '607', '608', '610', '611', '612', '614', '615', '616', '621', '625', '626')
    when 12 then p_regime in ('601', '603', '610', '620', '622', '623', '624', '626')
    else false
  end
$$;

/** Whether the uso del CFDI may be used by the régimen fiscal (SAT's c_UsoCFDI). */
create function public.sat_cfdi_use_allowed(p_regime text, p_use text) returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when p_use in ('G01', 'G02', 'G03', 'I01', 'I02', 'I03', 'I04', 'I05', 'I06', 'I07', 'I08') then
      p_regime in ('601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626')
    when p_use in ('D01', 'D02', 'D03', 'D04', 'D05', 'D06', 'D07', 'D08', 'D09', 'D10') then
      p_regime in ('605', '606', '607', '608', '611', '612', '614', '615', '625')
    when p_use = 'S01' then
      p_regime in ('601', '603', '605', '606', '607', '608', '610', '611', '612', '614', '615', '616', '620', '621', '622', '623', '624', '625', '626')
    else false
  end
$$;

-- The shopper's tax data -------------------------------------------------------------------------

create table public.tax_profiles (
  user_id uuid primary key default auth.uid() references auth.users (id) on delete cascade,
  rfc text not null constraint tax_profiles_rfc_check check (public.rfc_is_valid(rfc)),
  legal_name text not null constraint tax_profiles_legal_name_check
    check (legal_name = btrim(legal_name) and length(legal_name) between 1 and 300),
  tax_regime text not null constraint tax_profiles_tax_regime_check check (public.sat_tax_regime_allowed(rfc, tax_regime)),
  tax_zip text not null constraint tax_profiles_tax_zip_check check (tax_zip ~ '^[0-9]{5}$'),
  cfdi_use text not null default 'G03' constraint tax_profiles_cfdi_use_check check (public.sat_cfdi_use_allowed(tax_regime, cfdi_use)),
  invoice_email text not null constraint tax_profiles_invoice_email_check
    check (length(invoice_email) <= 254 and invoice_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

/** The RFC in capitals and without spaces, the razón social and the e-mail trimmed. */
create function public.tax_profiles_normalise() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.rfc := upper(regexp_replace(new.rfc, '\s', '', 'g'));
  new.legal_name := btrim(new.legal_name);
  new.invoice_email := btrim(new.invoice_email);
  new.tax_zip := btrim(new.tax_zip);
  return new;
end
$$;
create trigger tax_profiles_normalise before insert or update on public.tax_profiles
  for each row execute function public.tax_profiles_normalise();
create trigger tax_profiles_set_updated_at before update on public.tax_profiles
  for each row execute function public.set_updated_at();

alter table public.tax_profiles enable row level security;
create policy "Tax profiles: read own" on public.tax_profiles
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Tax profiles: create own" on public.tax_profiles
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "Tax profiles: change own" on public.tax_profiles
  for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy "Tax profiles: delete own" on public.tax_profiles
  for delete to authenticated using (user_id = (select auth.uid()));
revoke all on public.tax_profiles from anon, authenticated;
grant select, delete on public.tax_profiles to authenticated;
grant insert (rfc, legal_name, tax_regime, tax_zip, cfdi_use, invoice_email) on public.tax_profiles to authenticated;
grant update (rfc, legal_name, tax_regime, tax_zip, cfdi_use, invoice_email) on public.tax_profiles to authenticated;
grant all on public.tax_profiles to service_role;

-- SAT keys of the catalogue ----------------------------------------------------------------------

alter table public.product_types
  add column sat_product_key text not null default '60141101'
    constraint product_types_sat_product_key_check check (sat_product_key ~ '^[0-9]{8}$' and sat_product_key <> '00000000');

-- Existing products take the key every type has today; from now on the trigger fills it.
alter table public.products
  add column sat_product_key text not null default '60141101'
    constraint products_sat_product_key_check check (sat_product_key ~ '^[0-9]{8}$' and sat_product_key <> '00000000'),
  add column sat_unit_key text not null default 'H87'
    constraint products_sat_unit_key_check check (sat_unit_key ~ '^[A-Z0-9]{2,3}$');
-- Then an insert that leaves the key out writes '' and products_sat_keys puts the type's key in.
alter table public.products alter column sat_product_key set default '';

/** A product type's default product key ('60141101' without a type). */
create function public.sat_default_product_key(p_product_type_id text) returns text
language sql
stable
set search_path = ''
as $$
  select coalesce((select t.sat_product_key from public.product_types t where t.id = p_product_type_id), '60141101')
$$;

/**
 * Fills a product's SAT keys the owner left empty: the product type's product key and 'H87'. The
 * unit key is kept in capitals. A product that changes type while it had the old type's key takes
 * the new type's.
 */
create function public.products_sat_keys() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.sat_product_key := nullif(btrim(new.sat_product_key), '');
  new.sat_unit_key := nullif(upper(btrim(new.sat_unit_key)), '');
  if tg_op = 'UPDATE' and new.product_type_id is distinct from old.product_type_id
     and new.sat_product_key is not distinct from old.sat_product_key
     and old.sat_product_key = public.sat_default_product_key(old.product_type_id) then
    new.sat_product_key := null;
  end if;
  new.sat_product_key := coalesce(new.sat_product_key, public.sat_default_product_key(new.product_type_id));
  new.sat_unit_key := coalesce(new.sat_unit_key, 'H87');
  return new;
end
$$;
create trigger products_sat_keys before insert or update of sat_product_key, sat_unit_key, product_type_id on public.products
  for each row execute function public.products_sat_keys();
