-- The back office: the shop owner runs the shop from /admin.
--
--   orders.carrier, tracking_number  how a shipped order travels ('Paquetería', 'Número de guía'),
--   orders.shipped_at, completed_at  set by admin_set_order_status; shoppers read them on their
--                                     own orders.
--   admin_set_order_status           the ONE door through which the shop's staff move an order:
--                                     admins only, impossible transitions refused with a Spanish
--                                     message, every change recorded in order_events (the trigger
--                                     of 20261123000100) with the admin as actor and a note.
--                                     Refunds do not go through it: the server refunds through the
--                                     provider and complete_refund sets 'Reembolsado'.
--   admin_orders                     the order list of the back office with the customer's name and
--                                     e-mail (auth.users is not readable through the API), admins only.
--   admin_summary                    the 'Resumen' screen in one call: 30 days of sales, counters,
--                                     low-stock products; admins only.
--   admins read every order, its items (policies below); shoppers still read only their own.
--
-- State machine (anything else is refused with SQLSTATE P0001, DETAIL 'invalid_transition'):
--   Pendiente  -> Cancelado                 stock returned
--   Pagado     -> Procesando | Enviado
--   Procesando -> Enviado
--   Enviado    -> Completado
--   'Enviado' needs a carrier from the list and a tracking number.

alter table public.orders
  add column carrier text
    check (carrier is null or carrier in ('Estafeta', 'DHL', 'FedEx', 'Redpack', 'Paquetexpress', '99minutos', 'Otra')),
  add column tracking_number text
    check (tracking_number is null or length(btrim(tracking_number)) between 1 and 100),
  add column shipped_at timestamptz,
  add column completed_at timestamptz;

-- The back office lists every order newest first and filters by status.
create index orders_created_at_idx on public.orders (created_at desc);
create index orders_status_idx on public.orders (status);

/** As before, and the shipping columns are the shop's too. */
create or replace function public.orders_guard_update() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') and (
    new.id is distinct from old.id
    or new.user_id is distinct from old.user_id
    or new.created_at is distinct from old.created_at
    or new.status is distinct from old.status
    or new.paid_at is distinct from old.paid_at
    or new.subtotal is distinct from old.subtotal
    or new.discount is distinct from old.discount
    or new.shipping is distinct from old.shipping
    or new.total is distinct from old.total
    or new.coupon_code is distinct from old.coupon_code
    or new.payment_provider is distinct from old.payment_provider
    or new.payment_ref is distinct from old.payment_ref
    or new.expires_at is distinct from old.expires_at
    or new.refunded_at is distinct from old.refunded_at
    or new.refund_ref is distinct from old.refund_ref
    or new.shipping_address is distinct from old.shipping_address
    or new.points_awarded is distinct from old.points_awarded
    or new.carrier is distinct from old.carrier
    or new.tracking_number is distinct from old.tracking_number
    or new.shipped_at is distinct from old.shipped_at
    or new.completed_at is distinct from old.completed_at
  ) then
    raise exception 'Solo se puede cambiar la dirección de envío de un pedido.' using errcode = '42501';
  end if;
  return new;
end
$$;

-- Admins read every order and its lines (the back office); shoppers keep reading only their own.
create policy "Orders: admins read" on public.orders
  for select to authenticated using ((select public.is_admin()));
create policy "Order items: admins read" on public.order_items
  for select to authenticated using ((select public.is_admin()));

/** The carriers the shop ships with ('Otra' for any other). */
create or replace function public.shipping_carriers() returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['Estafeta', 'DHL', 'FedEx', 'Redpack', 'Paquetexpress', '99minutos', 'Otra']
$$;

/**
 * Moves an order along the state machine above (admins only). Returns the order's new status,
 * carrier and tracking number as JSON.
 */
create or replace function public.admin_set_order_status(
  order_id uuid,
  new_status text,
  carrier text default null,
  tracking_number text default null,
  note text default null
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_carrier text := nullif(btrim(coalesce(admin_set_order_status.carrier, '')), '');
  v_tracking text := nullif(btrim(coalesce(admin_set_order_status.tracking_number, '')), '');
  v_note text := nullif(btrim(coalesce(admin_set_order_status.note, '')), '');
  r record;
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
    for r in
      select i.product_id, sum(i.quantity)::integer as quantity
        from public.order_items i
       where i.order_id = v_order.id and i.product_id is not null
       group by i.product_id
       order by i.product_id
    loop
      update public.products p set stock = p.stock + r.quantity where p.id = r.product_id;
    end loop;
  end if;
  perform set_config('app.order_note', '', true);

  select * into v_order from public.orders o where o.id = v_order.id;
  return jsonb_build_object(
    'id', v_order.id, 'status', v_order.status, 'carrier', v_order.carrier,
    'tracking_number', v_order.tracking_number, 'user_id', v_order.user_id);
end
$$;

/**
 * The back office's order list, newest first: filtered by status, by a date range (Mexico City
 * days, inclusive) and by a search (the '#XXXXXX' number, part of the e-mail or of the name), one
 * page at a time; every row carries total_count. p_order_id reads one order. Admins only.
 */
create or replace function public.admin_orders(
  p_status text default null,
  p_from date default null,
  p_to date default null,
  p_search text default null,
  p_limit integer default 25,
  p_offset integer default 0,
  p_order_id uuid default null
) returns table (
  id uuid,
  created_at timestamptz,
  status text,
  user_id uuid,
  customer_email text,
  customer_name text,
  subtotal numeric,
  discount numeric,
  shipping numeric,
  total numeric,
  coupon_code text,
  paid_at timestamptz,
  payment_provider text,
  payment_ref text,
  shipping_address jsonb,
  carrier text,
  tracking_number text,
  shipped_at timestamptz,
  completed_at timestamptz,
  refunded_at timestamptz,
  refund_ref text,
  total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := nullif(btrim(coalesce(p_search, '')), '');
  v_number text;
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede ver los pedidos de la tienda.'
      using errcode = '42501', detail = 'not_admin';
  end if;
  if v_search is not null and v_search ~ '^#?[0-9A-Fa-f]{6}$' then
    v_number := lower(ltrim(v_search, '#'));
  end if;
  return query
    select o.id, o.created_at, o.status, o.user_id, u.email::text,
           nullif(btrim(concat_ws(' ', p.name, p.lastname)), ''),
           o.subtotal, o.discount, o.shipping, o.total, o.coupon_code, o.paid_at,
           o.payment_provider, o.payment_ref, o.shipping_address, o.carrier, o.tracking_number,
           o.shipped_at, o.completed_at, o.refunded_at, o.refund_ref,
           count(*) over ()
      from public.orders o
      left join auth.users u on u.id = o.user_id
      left join public.profiles p on p.id = o.user_id
     where (p_order_id is null or o.id = p_order_id)
       and (nullif(p_status, '') is null or o.status = p_status)
       and (p_from is null or (o.created_at at time zone 'America/Mexico_City')::date >= p_from)
       and (p_to is null or (o.created_at at time zone 'America/Mexico_City')::date <= p_to)
       and (
         v_search is null
         or (v_number is not null and right(o.id::text, 6) = v_number)
         or u.email ilike '%' || v_search || '%'
         or concat_ws(' ', p.name, p.lastname) ilike '%' || v_search || '%'
         or p.username ilike '%' || v_search || '%'
       )
     order by o.created_at desc, o.id
     limit least(greatest(coalesce(p_limit, 25), 1), 100)
    offset greatest(coalesce(p_offset, 0), 0);
end
$$;

/**
 * The 'Resumen' screen: sales of the last 30 Mexico City days (orders paid that day and not
 * refunded or cancelled since: count and total), how many orders wait to ship ('Pagado' or
 * 'Procesando'), how many wait for their payment, how many refunds need attention, and the
 * products with 3 units or fewer. Admins only.
 */
create or replace function public.admin_summary() returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_today date := (now() at time zone 'America/Mexico_City')::date;
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede ver el resumen de la tienda.'
      using errcode = '42501', detail = 'not_admin';
  end if;
  return jsonb_build_object(
    'sales', (
      select coalesce(jsonb_agg(jsonb_build_object('day', d.day::date::text, 'orders', coalesce(s.orders, 0), 'total', coalesce(s.total, 0)) order by d.day), '[]'::jsonb)
        from generate_series(v_today - 29, v_today, interval '1 day') as d(day)
        left join (
          select (o.paid_at at time zone 'America/Mexico_City')::date as day, count(*)::integer as orders, sum(o.total) as total
            from public.orders o
           where o.paid_at is not null
             and o.status in ('Pagado', 'Procesando', 'Enviado', 'Completado')
             and o.paid_at >= (v_today - 30)::timestamp at time zone 'America/Mexico_City'
           group by 1
        ) s on s.day = d.day::date
    ),
    'toShip', (select count(*) from public.orders o where o.status in ('Pagado', 'Procesando')),
    'pendingPayment', (select count(*) from public.orders o where o.status = 'Pendiente'),
    'refundsToReview', (select count(*) from public.payment_refunds r where r.status <> 'succeeded'),
    'lowStock', (
      select coalesce(jsonb_agg(jsonb_build_object('id', x.id, 'name', x.name, 'stock', x.stock) order by x.stock, x.name), '[]'::jsonb)
        from (
          select p.id, p.name, p.stock from public.products p
           where p.stock <= 3 and p.available
           order by p.stock, p.name
           limit 50
        ) x
    ),
    'lowStockCount', (select count(*) from public.products p where p.stock <= 3 and p.available)
  );
end
$$;

revoke execute on function public.shipping_carriers() from public;
grant execute on function public.shipping_carriers() to anon, authenticated, service_role;
revoke execute on function public.admin_set_order_status(uuid, text, text, text, text) from public, anon;
grant execute on function public.admin_set_order_status(uuid, text, text, text, text) to authenticated;
revoke execute on function public.admin_orders(text, date, date, text, integer, integer, uuid) from public, anon;
grant execute on function public.admin_orders(text, date, date, text, integer, integer, uuid) to authenticated;
revoke execute on function public.admin_summary() from public, anon;
grant execute on function public.admin_summary() to authenticated;
