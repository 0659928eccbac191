-- The back office's 'Promociones': the list with each promotion's uses, discount given and sales,
-- and the writes (create, edit, pause / resume), each recorded in promotion_events. An edit changes
-- the promotion for new orders only: what earlier orders got stays in their rows and in
-- promotion_redemptions.

-- Every promotion with its counts: uses that count (promotion_uses), the discount and waived
-- shipping of those uses, and the sales (totals of the paid orders that used it).
create function public.admin_promotions()
returns table (
  id uuid, code text, description text, type text, value numeric, min_subtotal numeric,
  starts_at timestamptz, ends_at timestamptz, max_uses integer, max_uses_per_customer integer,
  first_purchase_only boolean, franchise_ids text[], expansion_ids text[], product_type_ids text[],
  product_ids text[], active boolean, updated_at timestamptz,
  uses integer, discount_given numeric, shipping_waived numeric, sales numeric
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede ver las promociones.' using errcode = '42501', detail = 'not_admin';
  end if;
  return query
  select p.id, p.code, p.description, p.type, p.value, p.min_subtotal, p.starts_at, p.ends_at,
         p.max_uses, p.max_uses_per_customer, p.first_purchase_only, p.franchise_ids, p.expansion_ids,
         p.product_type_ids, p.product_ids, p.active, p.updated_at,
         public.promotion_uses(p.id),
         coalesce(u.discount, 0)::numeric, coalesce(u.waived, 0)::numeric, coalesce(u.sales, 0)::numeric
    from public.promotions p
    left join lateral (
      select sum(r.discount) as discount, sum(r.shipping_waived) as waived,
             sum(o.total) filter (where o.status in ('Pagado', 'Procesando', 'Enviado', 'Completado')) as sales
        from public.promotion_redemptions r
        join public.orders o on o.id = r.order_id
       where r.promotion_id = p.id and r.returned_at is null
         and not (o.status = 'Pendiente' and o.expires_at is not null and o.expires_at <= now())
         and o.status not in ('Cancelado', 'Fallido')
    ) u on true
   order by p.active desc, p.created_at desc;
end
$$;
revoke all on function public.admin_promotions() from public, anon;
grant execute on function public.admin_promotions() to authenticated, service_role;

-- Creates (p_id null) or edits a promotion. p_fields: code, description, type, value,
-- min_subtotal, starts_at, ends_at (timestamptz; the back office sends Mexico City time with its
-- offset), max_uses, max_uses_per_customer (null = no limit), first_purchase_only, franchise_ids,
-- expansion_ids, product_type_ids, product_ids (arrays; empty = no restriction), active.
create function public.admin_save_promotion(p_id uuid, p_fields jsonb)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid := p_id;
  v_code text := upper(btrim(coalesce(p_fields ->> 'code', '')));
  v_type text := p_fields ->> 'type';
  v_value numeric;
  v_min numeric;
  v_starts timestamptz;
  v_ends timestamptz;
  v_max integer;
  v_max_customer integer;
  v_row public.promotions%rowtype;
  v_arrays text[] := array['franchise_ids', 'expansion_ids', 'product_type_ids', 'product_ids'];
  v_key text;
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede editar promociones.' using errcode = '42501', detail = 'not_admin';
  end if;
  if p_fields is null or jsonb_typeof(p_fields) <> 'object' then
    raise exception 'Faltan los datos de la promoción.' using errcode = 'P0001', detail = 'fields_required';
  end if;
  if v_code !~ '^[A-Z0-9][A-Z0-9_-]{2,39}$' then
    raise exception 'El código debe tener de 3 a 40 letras, números, guiones o guiones bajos.'
      using errcode = 'P0001', detail = 'code_invalid';
  end if;
  if v_type is null or v_type not in ('percent', 'fixed', 'shipping') then
    raise exception 'Elige el tipo de promoción.' using errcode = 'P0001', detail = 'type_invalid';
  end if;
  begin
    v_value := coalesce(nullif(p_fields ->> 'value', ''), '0')::numeric;
    v_min := coalesce(nullif(p_fields ->> 'min_subtotal', ''), '0')::numeric;
    v_starts := nullif(p_fields ->> 'starts_at', '')::timestamptz;
    v_ends := nullif(p_fields ->> 'ends_at', '')::timestamptz;
    v_max := nullif(p_fields ->> 'max_uses', '')::integer;
    v_max_customer := nullif(p_fields ->> 'max_uses_per_customer', '')::integer;
  exception when others then
    raise exception 'Revisa los números y las fechas de la promoción.' using errcode = 'P0001', detail = 'fields_invalid';
  end;
  if v_type = 'shipping' then
    v_value := 0;
  elsif v_type = 'percent' and (v_value < 1 or v_value > 100 or v_value <> trunc(v_value)) then
    raise exception 'El porcentaje debe ser un número entero entre 1 y 100.' using errcode = 'P0001', detail = 'value_invalid';
  elsif v_type = 'fixed' and (v_value <= 0 or v_value > 10000000 or v_value <> round(v_value, 2)) then
    raise exception 'El monto debe ser mayor que $0.00.' using errcode = 'P0001', detail = 'value_invalid';
  end if;
  if v_min < 0 or v_min > 10000000 or v_min <> round(v_min, 2) then
    raise exception 'El mínimo de compra no es válido.' using errcode = 'P0001', detail = 'min_invalid';
  end if;
  if v_starts is not null and v_ends is not null and v_ends <= v_starts then
    raise exception 'La promoción debe terminar después de empezar.' using errcode = 'P0001', detail = 'window_invalid';
  end if;
  if (v_max is not null and v_max not between 1 and 10000000)
     or (v_max_customer is not null and v_max_customer not between 1 and 10000) then
    raise exception 'Los límites de usos deben ser enteros positivos (vacío = sin límite).'
      using errcode = 'P0001', detail = 'limits_invalid';
  end if;
  foreach v_key in array v_arrays loop
    if jsonb_typeof(coalesce(p_fields -> v_key, '[]'::jsonb)) <> 'array'
       or exists (select 1 from jsonb_array_elements(coalesce(p_fields -> v_key, '[]'::jsonb)) e
                   where jsonb_typeof(e.value) <> 'string') then
      raise exception 'El alcance de la promoción no es válido.' using errcode = 'P0001', detail = 'scope_invalid';
    end if;
  end loop;
  if exists (select 1 from public.promotions p where upper(p.code) = v_code and p.id is distinct from p_id) then
    raise exception 'Ya existe una promoción con el código %.', v_code using errcode = 'P0001', detail = 'code_taken';
  end if;

  if v_id is null then
    insert into public.promotions (code, type, value, created_by, updated_by)
    values (v_code, v_type, v_value, (select auth.uid()), (select auth.uid()))
    returning id into v_id;
  else
    perform 1 from public.promotions p where p.id = v_id for update;
    if not found then
      raise exception 'La promoción no existe.' using errcode = 'P0001', detail = 'promotion_not_found';
    end if;
  end if;
  update public.promotions p set
    code = v_code,
    description = left(btrim(coalesce(p_fields ->> 'description', '')), 200),
    type = v_type,
    value = v_value,
    min_subtotal = v_min,
    starts_at = v_starts,
    ends_at = v_ends,
    max_uses = v_max,
    max_uses_per_customer = v_max_customer,
    first_purchase_only = coalesce((p_fields ->> 'first_purchase_only')::boolean, false),
    franchise_ids = array(select distinct jsonb_array_elements_text(coalesce(p_fields -> 'franchise_ids', '[]'::jsonb)) order by 1),
    expansion_ids = array(select distinct jsonb_array_elements_text(coalesce(p_fields -> 'expansion_ids', '[]'::jsonb)) order by 1),
    product_type_ids = array(select distinct jsonb_array_elements_text(coalesce(p_fields -> 'product_type_ids', '[]'::jsonb)) order by 1),
    product_ids = array(select distinct jsonb_array_elements_text(coalesce(p_fields -> 'product_ids', '[]'::jsonb)) order by 1),
    active = coalesce((p_fields ->> 'active')::boolean, true),
    updated_by = (select auth.uid()),
    updated_at = now()
   where p.id = v_id
  returning * into v_row;
  insert into public.promotion_events (promotion_id, action, actor, snapshot)
  values (v_id, case when p_id is null then 'created' else 'updated' end, (select auth.uid()), to_jsonb(v_row));
  return v_id;
end
$$;
revoke all on function public.admin_save_promotion(uuid, jsonb) from public, anon;
grant execute on function public.admin_save_promotion(uuid, jsonb) to authenticated, service_role;

-- Pauses (false) or resumes (true) a promotion; recorded.
create function public.admin_set_promotion_active(p_id uuid, p_active boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede editar promociones.' using errcode = '42501', detail = 'not_admin';
  end if;
  update public.promotions p set active = coalesce(p_active, false), updated_by = (select auth.uid()), updated_at = now()
   where p.id = p_id and p.active is distinct from coalesce(p_active, false);
  if found then
    insert into public.promotion_events (promotion_id, action, actor)
    values (p_id, case when coalesce(p_active, false) then 'resumed' else 'paused' end, (select auth.uid()));
  elsif not exists (select 1 from public.promotions p where p.id = p_id) then
    raise exception 'La promoción no existe.' using errcode = 'P0001', detail = 'promotion_not_found';
  end if;
end
$$;
revoke all on function public.admin_set_promotion_active(uuid, boolean) from public, anon;
grant execute on function public.admin_set_promotion_active(uuid, boolean) to authenticated, service_role;
