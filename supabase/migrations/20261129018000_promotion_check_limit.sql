-- Coupon codes cannot be guessed through check_promotion: each check of a code that does not exist
-- (or is paused or not started: the shopper sees '⚠️ Cupón no válido.' for all three) is recorded
-- per caller in promotion_check_failures, and a caller with 10 of them in the last 10 minutes gets
-- 'Demasiados intentos con cupones. Espera unos minutos.' (detail coupon_rate_limited) for every
-- code, valid or not, until the oldest of those 10 is 10 minutes old; so the limit itself tells
-- nothing about which codes exist. Valid codes and other refusals (expired, used up, minimum, scope)
-- do not count.
--
-- The caller (promotion_caller_key):
--   'user:<id>'   a signed-in shopper;
--   'ip:<addr>'   an anonymous shopper, when the API gateway passes the request's headers
--                 (PostgREST's request.headers): the last address of x-forwarded-for, the one the
--                 gateway itself appended, so a client cannot pick its own key; else x-real-ip;
--   'anon'        an anonymous shopper otherwise: the local stack passes no request headers, so
--                 there all anonymous shoppers share one allowance (signing in gives one's own).
--
-- create_order refuses every coupon of a signed-in shopper over the limit (promotion_apply with
-- p_lock). check_promotion is volatile now: it writes, so PostgREST must not run it read-only.

create table public.promotion_check_failures (
  id bigint generated always as identity primary key,
  caller text not null check (length(caller) between 1 and 200),
  code text not null check (length(code) <= 60),
  created_at timestamptz not null default now()
);
comment on table public.promotion_check_failures is 'Checks of unknown coupon codes per caller, for check_promotion''s limit of guesses.';
create index promotion_check_failures_caller_idx on public.promotion_check_failures (caller, created_at);
alter table public.promotion_check_failures enable row level security;
create policy "Promotion check failures: admins read" on public.promotion_check_failures
  for select to authenticated using ((select public.is_admin()));
revoke all on public.promotion_check_failures from anon, authenticated;
grant select on public.promotion_check_failures to authenticated;
grant all on public.promotion_check_failures to service_role;

-- Who is checking codes: 'user:<id>', 'ip:<addr>' or 'anon' (see above).
create function public.promotion_caller_key() returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_headers jsonb;
  v_forwarded text[];
  v_addr text;
begin
  if v_user is not null then
    return 'user:' || v_user::text;
  end if;
  begin
    v_headers := nullif(current_setting('request.headers', true), '')::jsonb;
  exception when others then
    v_headers := null;
  end;
  if jsonb_typeof(v_headers) = 'object' then
    v_forwarded := string_to_array(v_headers ->> 'x-forwarded-for', ',');
    if cardinality(v_forwarded) > 0 then
      v_addr := btrim(v_forwarded[cardinality(v_forwarded)]);
    end if;
    v_addr := coalesce(nullif(v_addr, ''), nullif(btrim(v_headers ->> 'x-real-ip'), ''));
    if v_addr is not null then
      return 'ip:' || left(v_addr, 100);
    end if;
  end if;
  return 'anon';
end
$$;
revoke all on function public.promotion_caller_key() from public, anon, authenticated;

-- Whether a caller checked 10 unknown codes in the last 10 minutes.
create function public.promotion_guesses_exceeded(p_caller text) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select count(*) >= 10
    from public.promotion_check_failures f
   where f.caller = p_caller and f.created_at > now() - interval '10 minutes';
$$;
revoke all on function public.promotion_guesses_exceeded(text) from public, anon, authenticated;

-- create_order's gate: a shopper over the limit orders without a coupon or waits.
create or replace function public.promotion_apply(p_code text, p_user uuid, p_lines jsonb, p_lock boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_code text := upper(btrim(coalesce(p_code, '')));
  v_promo public.promotions%rowtype;
  v_subtotal numeric(12, 2) := 0;
  v_matching numeric(12, 2) := 0;
  v_eligible jsonb := '[]'::jsonb;
  v_line jsonb;
  v_product public.products%rowtype;
  v_match boolean;
  v_discount numeric(12, 2) := 0;
begin
  -- create_order (p_lock) takes no code from a shopper whom check_promotion stopped for guessing.
  if p_lock and p_user is not null and public.promotion_guesses_exceeded('user:' || p_user::text) then
    raise exception 'Demasiados intentos con cupones. Espera unos minutos.'
      using errcode = 'P0001', detail = 'coupon_rate_limited';
  end if;
  if p_lock then
    select * into v_promo from public.promotions p where upper(p.code) = v_code for update;
  else
    select * into v_promo from public.promotions p where upper(p.code) = v_code;
  end if;
  if not found or not v_promo.active or (v_promo.starts_at is not null and now() < v_promo.starts_at) then
    raise exception '⚠️ Cupón no válido.' using errcode = 'P0001', detail = 'coupon_invalid';
  end if;
  if v_promo.ends_at is not null and now() >= v_promo.ends_at then
    raise exception 'Este cupón expiró.' using errcode = 'P0001', detail = 'coupon_expired';
  end if;
  if v_promo.max_uses is not null and public.promotion_uses(v_promo.id) >= v_promo.max_uses then
    raise exception 'Este cupón ya se usó el máximo de veces.' using errcode = 'P0001', detail = 'coupon_used_up';
  end if;
  if p_user is not null and v_promo.max_uses_per_customer is not null
     and public.promotion_uses(v_promo.id, p_user) >= v_promo.max_uses_per_customer then
    raise exception 'Este cupón ya se usó el máximo de veces.' using errcode = 'P0001', detail = 'coupon_used_up_by_customer';
  end if;
  if p_user is not null and v_promo.first_purchase_only and exists (
    select 1 from public.orders o
     where o.user_id = p_user
       and (o.status in ('Pagado', 'Procesando', 'Enviado', 'Completado', 'Reembolsado')
            or (o.status = 'Pendiente' and (o.expires_at is null or o.expires_at > now())))
  ) then
    raise exception 'Este cupón es solo para tu primera compra.' using errcode = 'P0001', detail = 'coupon_first_purchase';
  end if;

  for v_line in select value from jsonb_array_elements(coalesce(p_lines, '[]'::jsonb)) loop
    v_subtotal := v_subtotal + (v_line ->> 'amount')::numeric;
    select * into v_product from public.products p where p.id = v_line ->> 'product_id';
    v_match := found
      and (cardinality(v_promo.franchise_ids) = 0 or v_product.franchise_id = any (v_promo.franchise_ids))
      and (cardinality(v_promo.expansion_ids) = 0 or v_product.expansion_id = any (v_promo.expansion_ids))
      and (cardinality(v_promo.product_type_ids) = 0 or v_product.product_type_id = any (v_promo.product_type_ids))
      and (cardinality(v_promo.product_ids) = 0 or v_product.id = any (v_promo.product_ids));
    v_match := coalesce(v_match, false);
    v_eligible := v_eligible || to_jsonb(v_match);
    if v_match then
      v_matching := v_matching + (v_line ->> 'amount')::numeric;
    end if;
  end loop;

  if v_subtotal < v_promo.min_subtotal then
    raise exception 'Agrega % más para usar este cupón.', public.format_mxn(v_promo.min_subtotal - v_subtotal)
      using errcode = 'P0001', detail = 'coupon_minimum', hint = (v_promo.min_subtotal - v_subtotal)::text;
  end if;
  if not (v_eligible @> 'true'::jsonb) then
    raise exception 'Este cupón no aplica a los productos de tu carrito.'
      using errcode = 'P0001', detail = 'coupon_not_applicable';
  end if;

  if v_promo.type = 'percent' then
    -- numeric round() rounds halves away from zero, i.e. up for these non-negative amounts.
    v_discount := round(v_matching * v_promo.value / 100, 2);
  elsif v_promo.type = 'fixed' then
    v_discount := least(v_promo.value, v_matching);
  end if;
  return jsonb_build_object(
    'promotion_id', v_promo.id,
    'code', v_promo.code,
    'type', v_promo.type,
    'value', v_promo.value,
    'discount', v_discount,
    'free_shipping', v_promo.type = 'shipping',
    'eligible', v_eligible
  );
end
$$;
revoke all on function public.promotion_apply(text, uuid, jsonb, boolean) from public, anon, authenticated;

-- The browser's check, counting unknown codes and refusing a caller over the limit.
create or replace function public.check_promotion(code text, items jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_item jsonb;
  v_lines jsonb := '[]'::jsonb;
  v_price numeric(12, 2);
  v_qty integer;
  v_subtotal numeric(12, 2) := 0;
  v_answer jsonb;
  v_shipping numeric(12, 2);
  v_detail text;
  v_message text;
  v_caller text := public.promotion_caller_key();
begin
  -- One caller's checks count one after another (two at once cannot both take the last try).
  perform pg_advisory_xact_lock(hashtext('promotion_check_failures:' || v_caller));
  if public.promotion_guesses_exceeded(v_caller) then
    return jsonb_build_object('ok', false, 'detail', 'coupon_rate_limited',
                              'message', 'Demasiados intentos con cupones. Espera unos minutos.');
  end if;
  if items is null or jsonb_typeof(items) <> 'array' or jsonb_array_length(items) > 50 then
    return jsonb_build_object('ok', false, 'detail', 'invalid_item', 'message', 'Un producto del pedido no es válido.');
  end if;
  for v_item in select value from jsonb_array_elements(items) loop
    if jsonb_typeof(v_item) <> 'object' or jsonb_typeof(v_item -> 'product_id') is distinct from 'string'
       or jsonb_typeof(v_item -> 'quantity') is distinct from 'number'
       or (jsonb_typeof(v_item -> 'offer_id') = 'string'
           and (v_item ->> 'offer_id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$') then
      return jsonb_build_object('ok', false, 'detail', 'invalid_item', 'message', 'Un producto del pedido no es válido.');
    end if;
    if (v_item ->> 'quantity')::numeric <> trunc((v_item ->> 'quantity')::numeric)
       or (v_item ->> 'quantity')::numeric not between 1 and 10000 then
      return jsonb_build_object('ok', false, 'detail', 'invalid_quantity',
                                'message', 'La cantidad debe ser un número entero entre 1 y 10000.');
    end if;
    v_qty := (v_item ->> 'quantity')::integer;
    if jsonb_typeof(v_item -> 'offer_id') = 'string' then
      select c.price into v_price from public.card_offers c
       where c.id = (v_item ->> 'offer_id')::uuid and c.product_id = v_item ->> 'product_id';
    else
      select p.price into v_price from public.products p where p.id = v_item ->> 'product_id';
    end if;
    v_price := coalesce(v_price, 0);
    v_subtotal := v_subtotal + v_price * v_qty;
    v_lines := v_lines || jsonb_build_array(jsonb_build_object(
      'product_id', v_item ->> 'product_id', 'offer_id', v_item ->> 'offer_id', 'amount', v_price * v_qty));
    v_price := null;
  end loop;

  begin
    v_answer := public.promotion_apply(code, (select auth.uid()), v_lines, false);
  exception when sqlstate 'P0001' then
    get stacked diagnostics v_detail = pg_exception_detail, v_message = message_text;
    if v_detail = 'coupon_invalid' then
      -- Outside the failed block, so it stays when the answer goes out.
      delete from public.promotion_check_failures f where f.caller = v_caller and f.created_at < now() - interval '1 day';
      insert into public.promotion_check_failures (caller, code) values (v_caller, left(upper(btrim(coalesce(code, ''))), 60));
    end if;
    return jsonb_build_object('ok', false, 'detail', v_detail, 'message', v_message);
  end;
  v_shipping := case
    when v_subtotal <= 0 or (v_answer ->> 'free_shipping')::boolean or v_subtotal >= 2999.00 then 0
    else 99.00 end;
  return jsonb_build_object(
    'ok', true,
    'code', v_answer -> 'code',
    'type', v_answer -> 'type',
    'value', v_answer -> 'value',
    'subtotal', v_subtotal,
    'discount', v_answer -> 'discount',
    'shipping', v_shipping,
    'total', v_subtotal - (v_answer ->> 'discount')::numeric + v_shipping,
    'eligible', v_answer -> 'eligible'
  );
end
$$;
revoke all on function public.check_promotion(text, jsonb) from public;
grant execute on function public.check_promotion(text, jsonb) to anon, authenticated, service_role;
