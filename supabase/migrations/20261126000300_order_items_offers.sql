-- Orders sell card offers: a line of an order may be one offer of a single card (a raw copy by
-- condition, language and finish, or a graded slab), priced and reserved from public.card_offers.
--
--   public.order_items.offer_id      the offer sold on this line (null for a product sold as a
--                                    whole); set to null if the offer is deleted later.
--   public.order_items.offer_label   the offer as the shopper chose it, 'NM · Español · Holo' or
--                                    'PSA 10 · Inglés', kept so the order still shows it after
--                                    the offer is edited or deleted.
--   public.card_offer_label(...)     that label, the same as offerLabel in src/domain/singles.ts.
--
-- create_order accepts an optional offer_id per item. With one, the offer must belong to the
-- item's product, the line is priced at the offer's price and the offer's stock is reserved
-- (products.stock is untouched); the per-customer limit of the product counts every line of the
-- product, with or without an offer. Every path that returns reserved stock (expiry, cancel_order,
-- the shop's cancellation, refunds with restock) returns an offer line's units to its offer.
-- Locks are always taken products first (by id), then offers (by id), so concurrent orders,
-- cancellations and expiries never wait on each other in a cycle.

alter table public.order_items
  add column offer_id uuid references public.card_offers (id) on delete set null,
  add column offer_label text;
create index order_items_offer_id_idx on public.order_items (offer_id) where offer_id is not null;

create or replace function public.card_offer_label(
  p_condition public.card_condition,
  p_language text,
  p_finish text,
  p_grading_company public.grading_company,
  p_grade numeric
)
returns text
language sql
immutable
set search_path to ''
as $$
  select case
    when p_grading_company is not null and p_grade is not null then
      p_grading_company::text || ' '
        || case when p_grade = trunc(p_grade) then trunc(p_grade)::bigint::text
                else to_char(p_grade, 'FM999990.0') end
        || ' · ' || lang.label
    else
      concat_ws(' · ', nullif(coalesce(p_condition::text, ''), ''), nullif(lang.label, ''),
        nullif(case p_finish
          when 'normal' then 'Normal'
          when 'holo' then 'Holo'
          when 'reverse-holo' then 'Reverse holo'
          when 'parallel' then 'Parallel'
          when 'manga' then 'Manga'
          when 'foil' then 'Foil'
          else p_finish
        end, ''))
  end
  from (
    select case p_language
      when 'es' then 'Español'
      when 'en' then 'Inglés'
      when 'ja' then 'Japonés'
      when 'fr' then 'Francés'
      when 'de' then 'Alemán'
      when 'it' then 'Italiano'
      when 'pt' then 'Portugués'
      when 'ko' then 'Coreano'
      when 'zh' then 'Chino'
      else p_language
    end as label
  ) lang
$$;

-- Puts back the units reserved by the items of some orders: products first, then offers, each
-- in id order. An item whose offer was deleted returns nothing (its units were never products').
create or replace function public.restock_order_items(p_orders uuid[])
returns void
language plpgsql
security definer
set search_path to ''
as $function$
declare
  r record;
begin
  for r in
    select i.product_id, sum(i.quantity)::integer as quantity
      from public.order_items i
     where i.order_id = any (p_orders) and i.product_id is not null
       and i.offer_id is null and i.offer_label is null
     group by i.product_id
     order by i.product_id
  loop
    update public.products p set stock = p.stock + r.quantity where p.id = r.product_id;
  end loop;
  for r in
    select i.offer_id, sum(i.quantity)::integer as quantity
      from public.order_items i
     where i.order_id = any (p_orders) and i.offer_id is not null
     group by i.offer_id
     order by i.offer_id
  loop
    update public.card_offers c set stock = c.stock + r.quantity where c.id = r.offer_id;
  end loop;
end
$function$;
revoke execute on function public.restock_order_items(uuid[]) from public, anon, authenticated, service_role;

-- Cancels the expired pending orders and tells the caller what to put back: 'stock' per product
-- (as before) and now 'offers' per offer.
create or replace function public.cancel_expired_orders()
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_orders uuid[];
  v_stock jsonb;
  v_offers jsonb;
begin
  select coalesce(array_agg(due.id order by due.id), '{}') into v_orders
    from (
      select e.id from public.orders e
       where e.status = 'Pendiente' and e.expires_at is not null and e.expires_at <= now()
       order by e.id
       for update
    ) due;
  if cardinality(v_orders) = 0 then
    return jsonb_build_object('orders', 0, 'stock', '{}'::jsonb, 'offers', '{}'::jsonb);
  end if;
  perform set_config('app.order_note', 'La reserva expiró', true);
  update public.orders o set status = 'Cancelado' where o.id = any (v_orders);
  perform set_config('app.order_note', '', true);

  select coalesce(jsonb_object_agg(s.product_id, s.quantity), '{}'::jsonb) into v_stock
    from (
      select i.product_id, sum(i.quantity)::integer as quantity
        from public.order_items i
       where i.order_id = any (v_orders) and i.product_id is not null
         and i.offer_id is null and i.offer_label is null
       group by i.product_id
    ) s;
  select coalesce(jsonb_object_agg(s.offer_id::text, s.quantity), '{}'::jsonb) into v_offers
    from (
      select i.offer_id, sum(i.quantity)::integer as quantity
        from public.order_items i
       where i.order_id = any (v_orders) and i.offer_id is not null
       group by i.offer_id
    ) s;
  return jsonb_build_object('orders', cardinality(v_orders), 'stock', v_stock, 'offers', v_offers);
end
$function$;
revoke all on function public.cancel_expired_orders() from public;

create or replace function public.release_expired_orders()
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_released jsonb := public.cancel_expired_orders();
  r record;
begin
  for r in select key as product_id, value::integer as quantity from jsonb_each_text(v_released -> 'stock') order by key loop
    update public.products p set stock = p.stock + r.quantity where p.id = r.product_id;
  end loop;
  for r in
    select key::uuid as offer_id, value::integer as quantity
      from jsonb_each_text(coalesce(v_released -> 'offers', '{}'::jsonb))
     order by key::uuid
  loop
    update public.card_offers c set stock = c.stock + r.quantity where c.id = r.offer_id;
  end loop;
  return (v_released ->> 'orders')::integer;
end
$function$;
revoke all on function public.release_expired_orders() from public;
grant execute on function public.release_expired_orders() to service_role;

create or replace function public.create_order(items jsonb, coupon_code text default null::text)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_user uuid := (select auth.uid());
  v_item jsonb;
  v_qty_json jsonb;
  v_qty numeric;
  v_product_id text;
  v_offer_key text;
  v_lines jsonb := '{}'::jsonb;   -- product id -> every unit of the product (for the limit)
  v_plain jsonb := '{}'::jsonb;   -- product id -> units sold as the product itself
  v_offers jsonb := '{}'::jsonb;  -- offer id -> {product_id, quantity}
  v_released jsonb;
  v_released_offers jsonb;
  v_line record;
  v_product public.products%rowtype;
  v_offer public.card_offers%rowtype;
  v_name text;
  v_already integer;
  v_subtotal numeric(12, 2) := 0;
  v_code text := upper(btrim(coalesce(coupon_code, '')));
  v_discount numeric(12, 2) := 0;
  v_shipping numeric(12, 2);
  v_order uuid;
begin
  if v_user is null then
    raise exception 'Debes iniciar sesión para finalizar tu compra.'
      using errcode = 'P0001', detail = 'not_authenticated';
  end if;
  if items is null or jsonb_typeof(items) <> 'array' or jsonb_array_length(items) = 0 then
    raise exception 'Tu carrito está vacío.' using errcode = 'P0001', detail = 'empty_order';
  end if;
  if jsonb_array_length(items) > 50 then
    raise exception 'El pedido tiene demasiados productos (máximo 50 líneas).'
      using errcode = 'P0001', detail = 'too_many_items';
  end if;

  -- Validate every line and merge repeated products (and repeated offers); any price sent along
  -- is ignored.
  for v_item in select value from jsonb_array_elements(items) loop
    if jsonb_typeof(v_item) <> 'object'
       or jsonb_typeof(v_item -> 'product_id') is distinct from 'string'
       or length(v_item ->> 'product_id') not between 1 and 200
       or (jsonb_typeof(v_item -> 'offer_id') is not null
           and jsonb_typeof(v_item -> 'offer_id') <> 'null'
           and (jsonb_typeof(v_item -> 'offer_id') <> 'string'
                or (v_item ->> 'offer_id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'))
    then
      raise exception 'Un producto del pedido no es válido.' using errcode = 'P0001', detail = 'invalid_item';
    end if;
    v_qty_json := v_item -> 'quantity';
    if jsonb_typeof(v_qty_json) is distinct from 'number' then
      raise exception 'La cantidad debe ser un número entero entre 1 y 10000.'
        using errcode = 'P0001', detail = 'invalid_quantity';
    end if;
    v_qty := (v_qty_json #>> '{}')::numeric;
    if v_qty <> trunc(v_qty) or v_qty < 1 or v_qty > 10000 then
      raise exception 'La cantidad debe ser un número entero entre 1 y 10000.'
        using errcode = 'P0001', detail = 'invalid_quantity';
    end if;
    v_product_id := v_item ->> 'product_id';
    v_lines := jsonb_set(
      v_lines,
      array[v_product_id],
      to_jsonb(coalesce((v_lines ->> v_product_id)::integer, 0) + v_qty::integer)
    );
    if jsonb_typeof(v_item -> 'offer_id') = 'string' then
      v_offer_key := lower(v_item ->> 'offer_id');
      if v_offers ? v_offer_key and v_offers -> v_offer_key ->> 'product_id' <> v_product_id then
        raise exception 'La opción elegida de «%» no existe.', v_product_id
          using errcode = 'P0001', detail = 'unknown_product:' || v_product_id;
      end if;
      v_offers := jsonb_set(
        v_offers,
        array[v_offer_key],
        jsonb_build_object(
          'product_id', v_product_id,
          'quantity', coalesce((v_offers -> v_offer_key ->> 'quantity')::integer, 0) + v_qty::integer)
      );
    else
      v_plain := jsonb_set(
        v_plain,
        array[v_product_id],
        to_jsonb(coalesce((v_plain ->> v_product_id)::integer, 0) + v_qty::integer)
      );
    end if;
  end loop;

  -- One ordered pass locks the products being sold and those of expired orders being released,
  -- then one locks the offers the same way, and each puts the released stock back before this
  -- order checks it.
  v_released := public.cancel_expired_orders();
  v_released_offers := coalesce(v_released -> 'offers', '{}'::jsonb);
  v_released := v_released -> 'stock';
  for v_line in
    select ids.product_id from (
      select key as product_id from jsonb_each(v_lines)
      union
      select key from jsonb_each(v_released)
    ) ids
    order by ids.product_id
  loop
    perform 1 from public.products p where p.id = v_line.product_id for update;
    if v_released ? v_line.product_id then
      update public.products p set stock = p.stock + (v_released ->> v_line.product_id)::integer
       where p.id = v_line.product_id;
    end if;
  end loop;
  for v_line in
    select ids.offer_id from (
      select key::uuid as offer_id from jsonb_each(v_offers)
      union
      select key::uuid from jsonb_each(v_released_offers)
    ) ids
    order by ids.offer_id
  loop
    perform 1 from public.card_offers c where c.id = v_line.offer_id for update;
    if v_released_offers ? v_line.offer_id::text then
      update public.card_offers c set stock = c.stock + (v_released_offers ->> v_line.offer_id::text)::integer
       where c.id = v_line.offer_id;
    end if;
  end loop;

  for v_line in
    select key as product_id, value::integer as quantity from jsonb_each_text(v_lines) order by key
  loop
    select * into v_product from public.products p where p.id = v_line.product_id for update;
    if not found then
      raise exception 'El producto «%» no existe.', v_line.product_id
        using errcode = 'P0001', detail = 'unknown_product:' || v_line.product_id;
    end if;
    if not v_product.available then
      raise exception 'El producto «%» no está disponible.', v_product.name
        using errcode = 'P0001', detail = 'unavailable:' || v_product.id;
    end if;
    if coalesce((v_plain ->> v_product.id)::integer, 0) > v_product.stock then
      raise exception 'Stock insuficiente para «%» (disponible: %).', v_product.name, v_product.stock
        using errcode = 'P0001', detail = 'out_of_stock:' || v_product.id, hint = v_product.stock::text;
    end if;
    select coalesce(sum(i.quantity), 0)::integer into v_already
      from public.order_items i
      join public.orders o on o.id = i.order_id
     where o.user_id = v_user
       and i.product_id = v_product.id
       and (
         o.status in ('Pagado', 'Procesando', 'Enviado', 'Completado')
         or (o.status = 'Pendiente' and (o.expires_at is null or o.expires_at > now()))
       );
    if v_already + v_line.quantity > v_product.limit_per_customer then
      raise exception 'Solo puedes comprar % unidad(es) de «%» por cliente (ya tienes % en otros pedidos).',
          v_product.limit_per_customer, v_product.name, v_already
        using errcode = 'P0001', detail = 'limit_exceeded:' || v_product.id,
              hint = greatest(v_product.limit_per_customer - v_already, 0)::text;
    end if;
    v_subtotal := v_subtotal + v_product.price * coalesce((v_plain ->> v_product.id)::integer, 0);
  end loop;

  for v_line in
    select key::uuid as offer_id, value ->> 'product_id' as product_id, (value ->> 'quantity')::integer as quantity
      from jsonb_each(v_offers) order by key::uuid
  loop
    select * into v_offer from public.card_offers c where c.id = v_line.offer_id for update;
    if not found or v_offer.product_id <> v_line.product_id then
      raise exception 'La opción elegida de «%» no existe.', v_line.product_id
        using errcode = 'P0001', detail = 'unknown_product:' || v_line.product_id;
    end if;
    if v_line.quantity > v_offer.stock then
      select p.name into v_name from public.products p where p.id = v_offer.product_id;
      raise exception 'Stock insuficiente para «%» (disponible: %).', v_name, v_offer.stock
        using errcode = 'P0001', detail = 'out_of_stock:' || v_offer.product_id, hint = v_offer.stock::text;
    end if;
    v_subtotal := v_subtotal + v_offer.price * v_line.quantity;
  end loop;

  if v_code = 'MEKACAT10' then
    -- numeric round() rounds halves away from zero, i.e. up for these non-negative amounts.
    v_discount := round(v_subtotal * 0.10, 2);
  elsif v_code <> 'ENVIOGRATIS' then
    v_code := null;
  end if;
  v_shipping := case when v_code = 'ENVIOGRATIS' or v_subtotal >= 2999.00 then 0 else 99.00 end;

  insert into public.orders (user_id, status, subtotal, discount, shipping, total, coupon_code, expires_at)
  values (v_user, 'Pendiente', v_subtotal, v_discount, v_shipping,
          v_subtotal - v_discount + v_shipping, v_code, now() + interval '30 minutes')
  returning id into v_order;

  for v_line in
    select key as product_id, value::integer as quantity from jsonb_each_text(v_plain) order by key
  loop
    -- Guarded even though the row is locked: stock must never go below zero.
    update public.products p set stock = p.stock - v_line.quantity
     where p.id = v_line.product_id and p.stock >= v_line.quantity
    returning * into v_product;
    if not found then
      raise exception 'Stock insuficiente para «%».', v_line.product_id
        using errcode = 'P0001', detail = 'out_of_stock:' || v_line.product_id;
    end if;
    insert into public.order_items (order_id, product_id, quantity, price)
    values (v_order, v_product.id, v_line.quantity, v_product.price);
  end loop;

  for v_line in
    select key::uuid as offer_id, (value ->> 'quantity')::integer as quantity
      from jsonb_each(v_offers) order by key::uuid
  loop
    update public.card_offers c set stock = c.stock - v_line.quantity
     where c.id = v_line.offer_id and c.stock >= v_line.quantity
    returning * into v_offer;
    if not found then
      raise exception 'Stock insuficiente para «%».', v_line.offer_id
        using errcode = 'P0001', detail = 'out_of_stock:' || v_line.offer_id;
    end if;
    insert into public.order_items (order_id, product_id, quantity, price, offer_id, offer_label)
    values (v_order, v_offer.product_id, v_line.quantity, v_offer.price, v_offer.id,
            public.card_offer_label(v_offer.condition, v_offer.language, v_offer.finish,
                                    v_offer.grading_company, v_offer.grade));
  end loop;

  return v_order;
end
$function$;
revoke all on function public.create_order(items jsonb, coupon_code text) from public;
grant execute on function public.create_order(items jsonb, coupon_code text) to authenticated;


-- The pending order cancelled by its shopper, by the shop, or refunded: the units go back to
-- their products and offers.

CREATE OR REPLACE FUNCTION public.cancel_order(order_id uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_order public.orders%rowtype;
begin
  select * into v_order from public.orders o
   where o.id = cancel_order.order_id and o.user_id = (select auth.uid())
   for update;
  if not found then
    raise exception 'Pedido no encontrado.' using errcode = 'P0001', detail = 'order_not_found';
  end if;
  if v_order.status <> 'Pendiente' then
    raise exception 'Solo se puede cancelar un pedido pendiente.'
      using errcode = 'P0001', detail = 'order_not_cancellable';
  end if;
  if v_order.payment_method = 'oxxo' and v_order.oxxo_voucher is not null then
    raise exception 'Tienes una ficha de OXXO pendiente para este pedido.'
      using errcode = 'P0001', detail = 'oxxo_voucher_open';
  end if;
  update public.orders o set status = 'Cancelado' where o.id = v_order.id;
  perform public.restock_order_items(array[v_order.id]);
  return true;
end
$function$;
REVOKE ALL ON FUNCTION public.cancel_order(order_id uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.cancel_order(order_id uuid) TO authenticated, service_role;

CREATE OR REPLACE FUNCTION public.admin_set_order_status(order_id uuid, new_status text, carrier text DEFAULT NULL::text, tracking_number text DEFAULT NULL::text, note text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_order public.orders%rowtype;
  v_carrier text := nullif(btrim(coalesce(admin_set_order_status.carrier, '')), '');
  v_tracking text := nullif(btrim(coalesce(admin_set_order_status.tracking_number, '')), '');
  v_note text := nullif(btrim(coalesce(admin_set_order_status.note, '')), '');
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede cambiar el estado de un pedido.'
      using errcode = '42501', detail = 'not_admin';
  end if;
  select * into v_order from public.orders o where o.id = admin_set_order_status.order_id for update;
  if not found then
    raise exception 'Pedido no encontrado.' using errcode = 'P0001', detail = 'order_not_found';
  end if;
  if new_status = 'Reembolsado' then
    raise exception 'Un reembolso se hace con «Cancelar y reembolsar», a través del proveedor de pago.'
      using errcode = 'P0001', detail = 'refund_through_server';
  end if;
  if not (
    (v_order.status = 'Pendiente' and new_status = 'Cancelado')
    or (v_order.status = 'Pagado' and new_status in ('Procesando', 'Enviado'))
    or (v_order.status = 'Procesando' and new_status = 'Enviado')
    or (v_order.status = 'Enviado' and new_status = 'Completado')
  ) then
    raise exception 'No se puede cambiar un pedido de «%» a «%».', v_order.status, coalesce(new_status, '')
      using errcode = 'P0001', detail = 'invalid_transition';
  end if;
  if v_note is not null and length(v_note) > 500 then
    raise exception 'La nota no puede pasar de 500 caracteres.' using errcode = 'P0001', detail = 'invalid_note';
  end if;

  if new_status = 'Enviado' then
    if v_carrier is null or not (v_carrier = any (public.shipping_carriers())) then
      raise exception 'Elige la paquetería.' using errcode = 'P0001', detail = 'carrier_required';
    end if;
    if v_tracking is null or length(v_tracking) > 100 then
      raise exception 'Escribe el número de guía (hasta 100 caracteres).' using errcode = 'P0001', detail = 'tracking_required';
    end if;
    perform set_config('app.order_note', coalesce(v_note, 'Enviado por ' || v_carrier || ', guía ' || v_tracking), true);
    update public.orders o
       set status = 'Enviado', carrier = v_carrier, tracking_number = v_tracking, shipped_at = now()
     where o.id = v_order.id;
  elsif new_status = 'Completado' then
    perform set_config('app.order_note', coalesce(v_note, 'Pedido entregado'), true);
    update public.orders o set status = 'Completado', completed_at = now() where o.id = v_order.id;
  elsif new_status = 'Procesando' then
    perform set_config('app.order_note', coalesce(v_note, 'Preparando el envío'), true);
    update public.orders o set status = 'Procesando' where o.id = v_order.id;
  else
    -- Pendiente -> Cancelado: the reserved units go back on sale.
    perform set_config('app.order_note', coalesce(v_note, 'Cancelado por la tienda'), true);
    update public.orders o set status = 'Cancelado', expires_at = null where o.id = v_order.id;
    perform public.restock_order_items(array[v_order.id]);
  end if;
  perform set_config('app.order_note', '', true);

  select * into v_order from public.orders o where o.id = v_order.id;
  return jsonb_build_object(
    'id', v_order.id, 'status', v_order.status, 'carrier', v_order.carrier,
    'tracking_number', v_order.tracking_number, 'user_id', v_order.user_id);
end
$function$;
REVOKE ALL ON FUNCTION public.admin_set_order_status(order_id uuid, new_status text, carrier text, tracking_number text, note text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.admin_set_order_status(order_id uuid, new_status text, carrier text, tracking_number text, note text) TO authenticated, service_role;

CREATE OR REPLACE FUNCTION public.finish_order_refund(p_order_id uuid, p_refund_ref text, p_note text, p_restock boolean)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_order public.orders%rowtype;
begin
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if v_order.status = 'Reembolsado' then
    return v_order.status;
  end if;
  if v_order.status in ('Pendiente', 'Pagado', 'Procesando')
     or (p_restock and v_order.status in ('Enviado', 'Completado')) then
    perform public.restock_order_items(array[v_order.id]);
  end if;
  if v_order.points_awarded > 0 then
    update public.rewards w set points = greatest(w.points - v_order.points_awarded, 0)
     where w.user_id = v_order.user_id;
  end if;
  perform set_config('app.order_note', p_note, true);
  update public.orders o
     set status = 'Reembolsado', refunded_at = now(), refund_ref = p_refund_ref,
         points_awarded = 0, expires_at = null
   where o.id = v_order.id;
  perform set_config('app.order_note', '', true);
  return 'Reembolsado';
end
$function$;
REVOKE ALL ON FUNCTION public.finish_order_refund(p_order_id uuid, p_refund_ref text, p_note text, p_restock boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.finish_order_refund(p_order_id uuid, p_refund_ref text, p_note text, p_restock boolean) TO service_role;
