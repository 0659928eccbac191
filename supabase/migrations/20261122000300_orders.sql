-- Orders, priced and stocked by the database.
--
-- Orders are created only by public.create_order(items, coupon_code); the browser never inserts
-- orders or order items and never sends prices. Only the service role (payments on the server)
-- changes an order's status, paid_at, amounts or items. A user may only point their own order at
-- one of their own addresses (shipping_address_id) and cancel their own pending order.
--
-- Pricing follows src/domain/pricing.ts exactly:
--   subtotal = sum(products.price * quantity)
--   coupon   = upper(btrim(coupon_code)); unknown coupons are ignored (no discount, no error)
--   discount = MEKACAT10: round(subtotal * 0.10, 2), halves rounded up; otherwise 0
--   shipping = 0 with ENVIOGRATIS or when subtotal >= 2999.00, else 99.00
--   total    = subtotal - discount + shipping
--
-- Refusals raised by create_order, cancel_order and mark_order_paid: SQLSTATE P0001 with a
-- Spanish message for people and a machine-readable DETAIL:
--   not_authenticated              no user in the request's JWT claims
--   empty_order                    items is not a non-empty JSON array
--   too_many_items                 more than 50 lines
--   invalid_item                   a line is not an object with a text product_id
--   invalid_quantity               quantity is not an integer between 1 and 10000
--   unknown_product:<id>           no such product
--   unavailable:<id>               product exists but is not for sale (available = false)
--   out_of_stock:<id>              quantity greater than the stock left
--   limit_exceeded:<id>            over limit_per_customer, counting the user's open and paid orders
--   order_not_found                no such order for this caller
--   order_not_cancellable          only 'Pendiente' orders can be cancelled
--   order_cancelled                a cancelled or failed order cannot be marked paid
-- The HINT of a product refusal carries the number that matters (stock left, units still allowed).

create table public.orders (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  status text not null default 'Pendiente'
    check (status in ('Pendiente', 'Pagado', 'Procesando', 'Enviado', 'Completado', 'Cancelado', 'Fallido')),
  paid_at timestamptz,
  shipping_address_id uuid references public.addresses (id) on delete set null,
  subtotal numeric(12, 2) not null default 0 check (subtotal >= 0),
  discount numeric(12, 2) not null default 0 check (discount >= 0),
  shipping numeric(12, 2) not null default 0 check (shipping >= 0),
  total numeric(12, 2) not null default 0 check (total >= 0),
  coupon_code text,
  payment_provider text,
  payment_ref text,
  expires_at timestamptz,
  updated_at timestamptz not null default now(),
  check (total = subtotal - discount + shipping)
);
-- Order history (newest first), the 30-day summary, and the expiry sweep.
create index orders_user_id_created_at_idx on public.orders (user_id, created_at desc);
create index orders_pending_expires_at_idx on public.orders (expires_at) where status = 'Pendiente';
create index orders_shipping_address_id_idx on public.orders (shipping_address_id);
create unique index orders_payment_ref_key on public.orders (payment_provider, payment_ref)
  where payment_ref is not null;

create trigger orders_set_updated_at
  before update on public.orders
  for each row execute function public.set_updated_at();

create table public.order_items (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  -- Set null when a product is deleted, so the order still lists 'Producto no disponible'.
  product_id text references public.products (id) on update cascade on delete set null,
  quantity integer not null check (quantity >= 1),
  price numeric(12, 2) not null check (price >= 0)
);
create index order_items_order_id_idx on public.order_items (order_id);
create index order_items_product_id_idx on public.order_items (product_id);

alter table public.orders enable row level security;
alter table public.order_items enable row level security;

create policy "Orders: read own" on public.orders
  for select to authenticated using (user_id = (select auth.uid()));
-- Only the address can change (column grant below), only to one of the user's own addresses,
-- and only before the order ships.
create policy "Orders: choose own shipping address" on public.orders
  for update to authenticated
  using (user_id = (select auth.uid()) and status in ('Pendiente', 'Pagado'))
  with check (
    user_id = (select auth.uid())
    and (
      shipping_address_id is null
      or exists (
        select 1 from public.addresses a
         where a.id = shipping_address_id and a.user_id = (select auth.uid())
      )
    )
  );
create policy "Order items: read own" on public.order_items
  for select to authenticated using (
    exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid()))
  );

revoke all on public.orders, public.order_items from anon, authenticated;
grant select on public.orders, public.order_items to authenticated;
grant update (shipping_address_id) on public.orders to authenticated;

/**
 * Second line of defence behind the column grants: an API role can change nothing on an order
 * but its shipping address.
 */
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
  ) then
    raise exception 'Solo se puede cambiar la dirección de envío de un pedido.' using errcode = '42501';
  end if;
  return new;
end
$$;
create trigger orders_guard_update
  before update on public.orders
  for each row execute function public.orders_guard_update();

-- Locking discipline (why concurrent calls never deadlock):
--   1. order rows before any product row; the expiry sweep is the only place that locks several
--      orders, and it locks them in id order;
--   2. then product rows, always in id order, in ONE pass per transaction (create_order locks the
--      products of the expired orders it releases together with the products it sells).
--   So whoever holds a product lock never waits for an order lock, and no cycle can form.

/**
 * Cancels the expired pending orders. Returns
 * {"orders": <how many>, "stock": {"<product id>": <units to put back>, ...}}; the stock is not
 * put back here, because the caller must lock those products in id order with its own.
 */
create or replace function public.cancel_expired_orders() returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_orders uuid[];
  v_stock jsonb;
begin
  -- Waits for expired orders another transaction holds (it may roll back, and then their
  -- units must still come back) and takes them in id order, so two sweeps never deadlock.
  select coalesce(array_agg(due.id order by due.id), '{}') into v_orders
    from (
      select e.id from public.orders e
       where e.status = 'Pendiente' and e.expires_at is not null and e.expires_at <= now()
       order by e.id
       for update
    ) due;
  if cardinality(v_orders) = 0 then
    return jsonb_build_object('orders', 0, 'stock', '{}'::jsonb);
  end if;
  update public.orders o set status = 'Cancelado' where o.id = any (v_orders);

  select coalesce(jsonb_object_agg(s.product_id, s.quantity), '{}'::jsonb) into v_stock
    from (
      select i.product_id, sum(i.quantity)::integer as quantity
        from public.order_items i
       where i.order_id = any (v_orders) and i.product_id is not null
       group by i.product_id
    ) s;
  return jsonb_build_object('orders', cardinality(v_orders), 'stock', v_stock);
end
$$;

/** Cancels pending orders whose reservation expired and returns their stock; returns how many. */
create or replace function public.release_expired_orders() returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_released jsonb := public.cancel_expired_orders();
  r record;
begin
  for r in select key as product_id, value::integer as quantity from jsonb_each_text(v_released -> 'stock') order by key loop
    update public.products p set stock = p.stock + r.quantity where p.id = r.product_id;
  end loop;
  return (v_released ->> 'orders')::integer;
end
$$;

/**
 * Creates a pending order for the caller from [{product_id, quantity}], priced from the products
 * table, with stock reserved for 30 minutes. Returns the new order's id.
 */
create or replace function public.create_order(items jsonb, coupon_code text default null)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_item jsonb;
  v_qty_json jsonb;
  v_qty numeric;
  v_lines jsonb := '{}'::jsonb;
  v_released jsonb;
  v_line record;
  v_product public.products%rowtype;
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

  -- Validate every line and merge repeated products; any price sent along is ignored.
  for v_item in select value from jsonb_array_elements(items) loop
    if jsonb_typeof(v_item) <> 'object'
       or jsonb_typeof(v_item -> 'product_id') is distinct from 'string'
       or length(v_item ->> 'product_id') not between 1 and 200
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
    v_lines := jsonb_set(
      v_lines,
      array[v_item ->> 'product_id'],
      to_jsonb(coalesce((v_lines ->> (v_item ->> 'product_id'))::integer, 0) + v_qty::integer)
    );
  end loop;

  -- One ordered pass locks the products being sold and those of expired orders being released,
  -- and puts the released stock back before this order checks it.
  v_released := public.cancel_expired_orders() -> 'stock';
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
    if v_line.quantity > v_product.stock then
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
    v_subtotal := v_subtotal + v_product.price * v_line.quantity;
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
    select key as product_id, value::integer as quantity from jsonb_each_text(v_lines) order by key
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

  return v_order;
end
$$;

/** Cancels the caller's own pending order and returns its stock. */
create or replace function public.cancel_order(order_id uuid) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  r record;
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
  update public.orders o set status = 'Cancelado' where o.id = v_order.id;
  for r in
    select i.product_id, sum(i.quantity)::integer as quantity
      from public.order_items i
     where i.order_id = v_order.id and i.product_id is not null
     group by i.product_id
     order by i.product_id
  loop
    update public.products p set stock = p.stock + r.quantity where p.id = r.product_id;
  end loop;
  return true;
end
$$;

/**
 * Marks an order paid once the payment provider confirmed it. Idempotent: returns true when it
 * changed the order, false when the order was already paid (or further along).
 */
create or replace function public.mark_order_paid(order_id uuid, provider text, ref text) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
begin
  select * into v_order from public.orders o where o.id = mark_order_paid.order_id for update;
  if not found then
    raise exception 'Pedido no encontrado.' using errcode = 'P0001', detail = 'order_not_found';
  end if;
  if v_order.status in ('Cancelado', 'Fallido') then
    raise exception 'El pedido está cancelado; el pago debe reembolsarse.'
      using errcode = 'P0001', detail = 'order_cancelled';
  end if;
  if v_order.status <> 'Pendiente' or v_order.paid_at is not null then
    return false;
  end if;
  update public.orders o
     set status = 'Pagado', paid_at = now(), payment_provider = provider, payment_ref = ref,
         expires_at = null
   where o.id = v_order.id;
  return true;
end
$$;

revoke execute on function public.create_order(jsonb, text) from public, anon, service_role;
grant execute on function public.create_order(jsonb, text) to authenticated;
revoke execute on function public.cancel_order(uuid) from public, anon;
grant execute on function public.cancel_order(uuid) to authenticated;
revoke execute on function public.mark_order_paid(uuid, text, text) from public, anon, authenticated;
grant execute on function public.mark_order_paid(uuid, text, text) to service_role;
revoke execute on function public.cancel_expired_orders() from public, anon, authenticated, service_role;
revoke execute on function public.release_expired_orders() from public, anon, authenticated;
grant execute on function public.release_expired_orders() to service_role;
revoke execute on function public.orders_guard_update() from public, anon, authenticated;
