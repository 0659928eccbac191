-- An order's status is a Postgres enum instead of text with a CHECK constraint.
--
--   public.order_status        'Pendiente', 'Pagado', 'Procesando', 'Enviado', 'Completado',
--                              'Cancelado', 'Fallido', 'Reembolsado': the statuses the CHECK allowed,
--                              in the order an order goes through them. ORDER_STATUS in
--                              src/domain/orders.ts names the same labels; a type check in
--                              src/data/orders.ts and tests/db/order-status.test.ts keep them equal.
--   orders.status              the enum, default 'Pendiente'; the enum takes the place of
--                              orders_status_check.
--   order_events.from_status   the enum as well: the history holds only statuses an order had.
--   order_events.to_status
--
-- ALTER COLUMN TYPE refuses a column that a policy, a trigger or a partial index names (and
-- would fail re-parsing a CHECK comparing it with text): those are dropped first and created
-- again, unchanged, once the column is the enum. The functions keep their signatures except
-- admin_orders, whose status column becomes the enum (RETURN QUERY needs the exact type).

create type public.order_status as enum (
  'Pendiente', 'Pagado', 'Procesando', 'Enviado', 'Completado', 'Cancelado', 'Fallido', 'Reembolsado'
);

-- What names orders.status ------------------------------------------------------------------------

drop policy "Orders: choose own shipping address" on public.orders;
drop trigger orders_record_event on public.orders;
drop trigger orders_return_store_credit on public.orders;
drop index public.orders_pending_expires_at_idx;
alter table public.orders drop constraint orders_status_check;

-- The columns -------------------------------------------------------------------------------------

alter table public.orders alter column status drop default;
alter table public.orders alter column status type public.order_status using status::public.order_status;
alter table public.orders alter column status set default 'Pendiente';

alter table public.order_events
  alter column from_status type public.order_status using from_status::public.order_status,
  alter column to_status type public.order_status using to_status::public.order_status;

-- Created again as they were ----------------------------------------------------------------------

create index orders_pending_expires_at_idx on public.orders (expires_at) where status = 'Pendiente';

-- A shopper may point only a pending order at an address (a paid order keeps its copy).
create policy "Orders: choose own shipping address" on public.orders
  for update to authenticated
  using (user_id = (select auth.uid()) and status = 'Pendiente')
  with check (
    user_id = (select auth.uid())
    and status = 'Pendiente'
    and (
      shipping_address_id is null
      or exists (
        select 1 from public.addresses a
         where a.id = shipping_address_id and a.user_id = (select auth.uid())
      )
    )
  );

create trigger orders_record_event
  after insert or update of status on public.orders
  for each row execute function public.orders_record_event();
create trigger orders_return_store_credit
  after update of status on public.orders
  for each row execute function public.orders_return_store_credit();

-- admin_orders ------------------------------------------------------------------------------------
-- p_status stays text (an unknown status still matches no order); the status column it returns is
-- the enum. The returned columns change, which create or replace cannot do: the function is
-- dropped and created again with its grants.
drop function public.admin_orders(text, date, date, text, integer, integer, uuid);

/**
 * The back office's order list, newest first: filtered by status, by a date range (Mexico City
 * days, inclusive) and by a search (the '#XXXXXX' number, part of the e-mail or of the name), one
 * page at a time; every row carries total_count. p_order_id reads one order. Admins only.
 */
create function public.admin_orders(
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
  status public.order_status,
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
  payment_method text,
  installments smallint,
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
           o.payment_provider, o.payment_ref, o.payment_method, o.installments,
           o.shipping_address, o.carrier, o.tracking_number,
           o.shipped_at, o.completed_at, o.refunded_at, o.refund_ref,
           count(*) over ()
      from public.orders o
      left join auth.users u on u.id = o.user_id
      left join public.profiles p on p.id = o.user_id
     where (p_order_id is null or o.id = p_order_id)
       and (nullif(p_status, '') is null or o.status::text = p_status)
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

revoke execute on function public.admin_orders(text, date, date, text, integer, integer, uuid) from public, anon;
grant execute on function public.admin_orders(text, date, date, text, integer, integer, uuid) to authenticated;
