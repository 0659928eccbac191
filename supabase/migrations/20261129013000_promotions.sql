-- Promotions the owner runs: coupon codes with rules, limits and dates, applied by the database.
--
--   promotions              one code (unique whatever its case; stored upper-case), its type
--                           ('percent' of the matching lines, 'fixed' amount in MXN off the
--                           matching lines, 'shipping' = free shipping), value, minimum subtotal
--                           (of the whole cart, before the discount), window (starts_at /
--                           ends_at, either open), total uses, uses per shopper, first purchase
--                           only, scope and whether it is active (paused when not).
--                           Scope: four arrays (franchises, expansions, product types, products);
--                           an empty array does not restrict. A line matches when it matches every
--                           non-empty array (e.g. franchise 'pokemon' + type 'booster box').
--   promotion_redemptions   one row per order that used a promotion: what it gave (discount and
--                           the shipping it waived) at that moment, so editing the promotion later
--                           changes new orders only. returned_at is set when the unpaid order is
--                           cancelled, expires or fails (trigger orders_return_promotion_use): the
--                           use no longer counts.
--   promotion_events        every promotion saved, paused, resumed or use returned, with its actor.
--
-- Usage is counted with the promotion's row locked (promotion_apply with p_lock), in create_order's
-- transaction, so concurrent orders cannot both take the last use. check_promotion answers the
-- browser with the same function, read-only and without the lock.
--
-- A refused code refuses the order (the checkout shows the refusal before ordering; if the code
-- changed meanwhile the shopper sees why instead of paying a different amount).

create table public.promotions (
  id uuid primary key default gen_random_uuid(),
  code text not null check (code ~ '^[A-Z0-9][A-Z0-9_-]{2,39}$'),
  description text not null default '' check (length(description) <= 200),
  type text not null check (type in ('percent', 'fixed', 'shipping')),
  -- Whole percent (1–100) for 'percent', pesos for 'fixed', 0 for 'shipping'.
  value numeric(12, 2) not null default 0,
  min_subtotal numeric(12, 2) not null default 0 check (min_subtotal between 0 and 10000000),
  starts_at timestamptz,
  ends_at timestamptz,
  max_uses integer check (max_uses is null or max_uses between 1 and 10000000),
  max_uses_per_customer integer check (max_uses_per_customer is null or max_uses_per_customer between 1 and 10000),
  first_purchase_only boolean not null default false,
  franchise_ids text[] not null default '{}',
  expansion_ids text[] not null default '{}',
  product_type_ids text[] not null default '{}',
  product_ids text[] not null default '{}',
  active boolean not null default true,
  created_by uuid references auth.users (id) on delete set null,
  updated_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (starts_at is null or ends_at is null or ends_at > starts_at),
  check (type <> 'percent' or value between 1 and 100 and value = trunc(value)),
  check (type <> 'fixed' or value > 0 and value <= 10000000),
  check (type <> 'shipping' or value = 0)
);
comment on table public.promotions is 'Coupon codes the back office runs: type, value, minimum, window, limits, scope, active.';
create unique index promotions_code_key on public.promotions (upper(code));

create table public.promotion_redemptions (
  id bigint generated always as identity primary key,
  promotion_id uuid not null references public.promotions (id) on delete restrict,
  order_id uuid not null unique references public.orders (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  code text not null,
  discount numeric(12, 2) not null check (discount >= 0),
  shipping_waived numeric(12, 2) not null default 0 check (shipping_waived >= 0),
  returned_at timestamptz,
  created_at timestamptz not null default now()
);
create index promotion_redemptions_promotion_idx on public.promotion_redemptions (promotion_id) where returned_at is null;
create index promotion_redemptions_user_idx on public.promotion_redemptions (user_id, promotion_id);

create table public.promotion_events (
  id bigint generated always as identity primary key,
  promotion_id uuid not null references public.promotions (id) on delete cascade,
  action text not null check (action in ('created', 'updated', 'paused', 'resumed', 'use_returned')),
  order_id uuid references public.orders (id) on delete set null,
  actor uuid references auth.users (id) on delete set null,
  -- The promotion as saved (created/updated), or null.
  snapshot jsonb,
  created_at timestamptz not null default now()
);
create index promotion_events_promotion_idx on public.promotion_events (promotion_id, created_at);

alter table public.promotions enable row level security;
alter table public.promotion_redemptions enable row level security;
alter table public.promotion_events enable row level security;
create policy "Promotions: admins read" on public.promotions
  for select to authenticated using ((select public.is_admin()));
create policy "Promotion redemptions: admins read" on public.promotion_redemptions
  for select to authenticated using ((select public.is_admin()));
create policy "Promotion events: admins read" on public.promotion_events
  for select to authenticated using ((select public.is_admin()));
revoke all on public.promotions, public.promotion_redemptions, public.promotion_events from anon, authenticated;
grant select on public.promotions, public.promotion_redemptions, public.promotion_events to authenticated;
grant all on public.promotions, public.promotion_redemptions, public.promotion_events to service_role;

insert into public.promotions (code, description, type, value)
values ('MEKACAT10', '10% de descuento en toda la tienda', 'percent', 10),
       ('ENVIOGRATIS', 'Envío gratis en toda la tienda', 'shipping', 0);

-- Money as the shop writes it: '$1,234.50'.
create function public.format_mxn(p_amount numeric) returns text
language sql
immutable
set search_path = ''
as $$
  select '$' || btrim(to_char(p_amount, 'FM999,999,999,990.00'));
$$;
revoke all on function public.format_mxn(numeric) from public, anon, authenticated;

-- Uses of a promotion that count: not returned, and not of a pending order whose reservation has
-- already expired (create_order cancels those first; the read-only check cannot). Of one shopper
-- when p_user is given.
create function public.promotion_uses(p_promotion_id uuid, p_user uuid default null) returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::integer
    from public.promotion_redemptions r
    join public.orders o on o.id = r.order_id
   where r.promotion_id = p_promotion_id
     and r.returned_at is null
     and (p_user is null or r.user_id = p_user)
     and not (o.status = 'Pendiente' and o.expires_at is not null and o.expires_at <= now())
     and o.status not in ('Cancelado', 'Fallido');
$$;
revoke all on function public.promotion_uses(uuid, uuid) from public, anon, authenticated;

-- What a code gives a priced cart, or the refusal (raised, with its detail code):
--   p_lines  [{product_id, offer_id, amount}] priced by the database (amount = price × quantity)
--   p_user   the shopper (null: a shopper not signed in; the per-shopper rules wait for the order)
--   p_lock   lock the promotion's row (create_order), so its uses are counted once per order
-- Answers {promotion_id, code, type, value, discount, free_shipping, eligible: [booleans per line]}.
create function public.promotion_apply(p_code text, p_user uuid, p_lines jsonb, p_lock boolean)
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

-- The browser's check when the shopper applies a code: the same items create_order receives
-- ([{product_id, offer_id?, quantity}], prices read here), and the same answer create_order would
-- give: {ok: true, code, type, value, discount, shipping, subtotal, total, eligible} or
-- {ok: false, detail, message} with the refusal create_order would raise. Reads only.
create function public.check_promotion(code text, items jsonb)
returns jsonb
language plpgsql
stable
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
begin
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

-- An unpaid order cancelled, expired or failed gives its promotion's use back, in the same
-- transaction as the status change.
create function public.orders_return_promotion_use() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_promotion uuid;
begin
  if old.status = 'Pendiente' and new.status in ('Cancelado', 'Fallido') then
    update public.promotion_redemptions r set returned_at = now()
     where r.order_id = new.id and r.returned_at is null
    returning r.promotion_id into v_promotion;
    if v_promotion is not null then
      insert into public.promotion_events (promotion_id, action, order_id, actor)
      values (v_promotion, 'use_returned', new.id, public.order_change_actor(new.user_id));
    end if;
  end if;
  return new;
end
$$;
revoke all on function public.orders_return_promotion_use() from public, anon, authenticated;
create trigger orders_return_promotion_use
  after update of status on public.orders
  for each row execute function public.orders_return_promotion_use();
