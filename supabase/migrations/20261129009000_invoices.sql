-- Facturas (CFDI 4.0) of paid orders and the monthly factura global.
--
--   invoices          one row per factura: of one order ('order': the shopper's tax data copied
--                     from tax_profiles when it was asked for) or of a month's sales nobody
--                     invoiced ('global': público en general, XAXX010101000, periodicity '04'
--                     mensual). Its concepts (what was paid for each line, base and IVA, in
--                     centavos) are computed by the server (src/domain/invoices.ts) from the order
--                     itself and checked here against orders.total. It is issued through a queue:
--                     'pending' → 'issuing' (claimed, attempts + 1) → 'issued' or 'failed' (retried
--                     at next_attempt_at, with backoff, until the attempts run out); an issued one
--                     is cancelled through 'cancelling' → 'cancelled' (when its order is refunded),
--                     a pending or failed one is simply 'cancelled'.
--   invoice_orders    the orders a factura global covers (one active factura per order, either
--                     its own or the month's global).
--   invoice_events    every change of status, with its actor (null: the system) and a note.
-- The shopper reads the facturas of their own orders and their events; the back office reads all.
-- Nobody writes these tables directly: the functions below (service role) do, each under the
-- row locks that keep one active factura per order and one factura global per month.

create table public.invoices (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('order', 'global')),
  -- A factura outlives its order (an account deleted with its orders): its receiver and concepts
  -- are copied here.
  order_id uuid references public.orders (id) on delete set null,
  user_id uuid references auth.users (id) on delete set null,
  status text not null default 'pending'
    check (status in ('pending', 'issuing', 'issued', 'failed', 'cancelling', 'cancelled')),
  -- The receiver as the factura states it: rfc, legal_name, tax_regime, tax_zip, cfdi_use, email.
  customer jsonb not null check (jsonb_typeof(customer) = 'object'),
  payment_form text not null check (payment_form ~ '^[0-9]{2}$'),
  payment_method text not null default 'PUE' check (payment_method in ('PUE')),
  concepts jsonb not null check (jsonb_typeof(concepts) = 'array' and jsonb_array_length(concepts) between 1 and 5000),
  subtotal numeric(12,2) not null check (subtotal >= 0),
  iva numeric(12,2) not null check (iva >= 0),
  total numeric(12,2) not null check (total > 0 and total = subtotal + iva),
  period_year smallint,
  period_month smallint check (period_month between 1 and 12),
  provider text not null check (provider in ('facturapi', 'simulated')),
  provider_id text,
  cfdi_uuid text,
  series text,
  folio text,
  request_key text check (request_key is null or length(request_key) between 8 and 100),
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz,
  claimed_at timestamptz,
  last_error text check (last_error is null or length(last_error) <= 1000),
  issued_at timestamptz,
  cancel_motive text check (cancel_motive is null or cancel_motive in ('02', '03')),
  cancel_requested_at timestamptz,
  cancelled_at timestamptz,
  shopper_told_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (kind = 'order' or order_id is null),
  check ((kind = 'global') = (period_year is not null and period_month is not null)),
  check (status <> 'issued' or (provider_id is not null and issued_at is not null))
);
create unique index invoices_one_active_per_order on public.invoices (order_id)
  where kind = 'order' and status <> 'cancelled';
create unique index invoices_one_global_per_month on public.invoices (period_year, period_month)
  where kind = 'global' and status <> 'cancelled';
create unique index invoices_provider_id_key on public.invoices (provider, provider_id) where provider_id is not null;
create index invoices_user_id_idx on public.invoices (user_id, created_at desc);
create index invoices_due_idx on public.invoices (next_attempt_at) where status in ('pending', 'failed', 'cancelling');
create index invoices_created_at_idx on public.invoices (created_at desc);
alter table public.invoices enable row level security;

create policy "Invoices: read own or admin" on public.invoices
  for select to authenticated
  using ((select public.is_admin()) or user_id = (select auth.uid()));
revoke all on public.invoices from anon, authenticated;
grant select on public.invoices to authenticated;
revoke insert, update, delete, truncate on public.invoices from service_role;
grant select on public.invoices to service_role;

create table public.invoice_orders (
  invoice_id uuid not null references public.invoices (id) on delete cascade,
  order_id uuid not null references public.orders (id) on delete cascade,
  total numeric(12,2) not null check (total >= 0),
  primary key (invoice_id, order_id)
);
create index invoice_orders_order_id_idx on public.invoice_orders (order_id);
alter table public.invoice_orders enable row level security;
create policy "Invoice orders: admins read" on public.invoice_orders
  for select to authenticated
  using ((select public.is_admin()));
revoke all on public.invoice_orders from anon, authenticated;
grant select on public.invoice_orders to authenticated;
revoke insert, update, delete, truncate on public.invoice_orders from service_role;
grant select on public.invoice_orders to service_role;

create table public.invoice_events (
  id bigint generated always as identity primary key,
  invoice_id uuid not null references public.invoices (id) on delete cascade,
  created_at timestamptz not null default now(),
  from_status text,
  to_status text not null,
  actor uuid references auth.users (id) on delete set null,
  note text check (note is null or length(note) <= 1000)
);
create index invoice_events_invoice_id_idx on public.invoice_events (invoice_id, created_at);
alter table public.invoice_events enable row level security;
create policy "Invoice events: read own or admin" on public.invoice_events
  for select to authenticated
  using ((select public.is_admin()) or exists (
    select 1 from public.invoices i where i.id = invoice_events.invoice_id and i.user_id = (select auth.uid())));
revoke all on public.invoice_events from anon, authenticated;
grant select on public.invoice_events to authenticated;
revoke insert, update, delete, truncate on public.invoice_events from service_role;
grant select on public.invoice_events to service_role;

-- Every change of status is recorded, whoever made it.
create function public.invoices_record_event() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' or new.status is distinct from old.status then
    insert into public.invoice_events (invoice_id, from_status, to_status, actor, note)
    values (new.id, case when tg_op = 'UPDATE' then old.status end, new.status,
            nullif(current_setting('app.invoice_actor', true), '')::uuid,
            nullif(current_setting('app.invoice_note', true), ''));
  end if;
  return null;
end
$$;
create trigger invoices_record_event after insert or update of status on public.invoices
  for each row execute function public.invoices_record_event();
revoke all on function public.invoices_record_event() from public, anon, authenticated;

create function public.invoices_set_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
create trigger invoices_set_updated_at before update on public.invoices
  for each row execute function public.invoices_set_updated_at();

/** The statuses of an order that has been paid and not refunded. */
create function public.order_is_invoiceable_status(p_status public.order_status) returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_status in ('Pagado', 'Procesando', 'Enviado', 'Completado')
$$;

/** Checks concepts computed by the server: amounts in centavos, base + IVA = amount, adding up to p_total. */
create function public.invoice_concepts_total(p_concepts jsonb) returns bigint
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_concept jsonb;
  v_sum bigint := 0;
begin
  if jsonb_typeof(p_concepts) <> 'array' or jsonb_array_length(p_concepts) = 0 then
    raise exception 'Los conceptos de la factura no son válidos.' using errcode = 'P0001', detail = 'invalid_concepts';
  end if;
  for v_concept in select * from jsonb_array_elements(p_concepts) loop
    if jsonb_typeof(v_concept->'amount') <> 'number' or jsonb_typeof(v_concept->'base') <> 'number'
       or jsonb_typeof(v_concept->'iva') <> 'number'
       or (v_concept->>'amount')::numeric <> trunc((v_concept->>'amount')::numeric)
       or (v_concept->>'amount')::bigint < 0
       or (v_concept->>'base')::bigint + (v_concept->>'iva')::bigint <> (v_concept->>'amount')::bigint
       or coalesce(v_concept->>'productKey', '') !~ '^[0-9]{8}$'
       or coalesce(v_concept->>'unitKey', '') !~ '^[A-Z0-9]{2,3}$' then
      raise exception 'Los conceptos de la factura no son válidos.' using errcode = 'P0001', detail = 'invalid_concepts';
    end if;
    v_sum := v_sum + (v_concept->>'amount')::bigint;
  end loop;
  return v_sum;
end
$$;

-- A shopper asks for the factura of their own paid order: with the tax data saved in their
-- account, until the end of the calendar month it was paid in (Mexico City time). The same
-- request_key again (a double click, a retried request) answers the same factura; another request
-- for an order that already has one is refused ('already_invoiced').
create function public.request_order_invoice(
  p_user_id uuid, p_order_id uuid, p_request_key text, p_payment_form text, p_concepts jsonb,
  p_provider text, p_now timestamptz default now()
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_profile record;
  v_existing public.invoices%rowtype;
  v_invoice public.invoices%rowtype;
  v_sum bigint;
begin
  if p_request_key is null or length(p_request_key) not between 8 and 100 then
    raise exception 'Falta la clave de la solicitud.' using errcode = 'P0001', detail = 'invalid_key';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found or v_order.user_id is distinct from p_user_id then
    raise exception 'Pedido no encontrado.' using errcode = 'P0001', detail = 'order_not_found';
  end if;
  select * into v_existing from public.invoices i
   where i.order_id = p_order_id and i.kind = 'order' and i.status <> 'cancelled';
  if found then
    if v_existing.request_key = p_request_key then
      return jsonb_build_object('id', v_existing.id, 'status', v_existing.status, 'replayed', true);
    end if;
    raise exception 'Este pedido ya tiene factura.' using errcode = 'P0001', detail = 'already_invoiced';
  end if;
  if not public.order_is_invoiceable_status(v_order.status) or v_order.paid_at is null then
    raise exception 'Solo se pueden facturar pedidos pagados.' using errcode = 'P0001', detail = 'not_paid';
  end if;
  if exists (select 1 from public.invoice_orders io join public.invoices i on i.id = io.invoice_id
              where io.order_id = p_order_id and i.status <> 'cancelled') then
    raise exception 'Este pedido ya se incluyó en la factura global del mes.' using errcode = 'P0001', detail = 'in_global_invoice';
  end if;
  if date_trunc('month', p_now at time zone 'America/Mexico_City')
     <> date_trunc('month', v_order.paid_at at time zone 'America/Mexico_City') then
    raise exception 'El plazo para facturar este pedido terminó: se puede facturar hasta el último día del mes en que se pagó.'
      using errcode = 'P0001', detail = 'window_closed';
  end if;
  select t.rfc, t.legal_name, t.tax_regime, t.tax_zip, t.cfdi_use, t.invoice_email into v_profile
    from public.tax_profiles t where t.user_id = p_user_id;
  if not found then
    raise exception 'Primero guarda tus datos de facturación.' using errcode = 'P0001', detail = 'no_tax_profile';
  end if;
  if p_payment_form is null or p_payment_form !~ '^[0-9]{2}$' then
    raise exception 'No se conoce la forma de pago de este pedido.' using errcode = 'P0001', detail = 'unknown_payment_form';
  end if;
  v_sum := public.invoice_concepts_total(p_concepts);
  if v_sum <> round(v_order.total * 100) or v_sum = 0 then
    raise exception 'Los conceptos no suman el total del pedido.' using errcode = 'P0001', detail = 'amount_mismatch';
  end if;
  perform set_config('app.invoice_actor', p_user_id::text, true);
  perform set_config('app.invoice_note', 'Factura solicitada', true);
  insert into public.invoices (kind, order_id, user_id, status, customer, payment_form, concepts, subtotal, iva, total,
                               provider, request_key, next_attempt_at)
  values ('order', p_order_id, p_user_id, 'pending',
          jsonb_build_object('rfc', v_profile.rfc, 'legal_name', v_profile.legal_name, 'tax_regime', v_profile.tax_regime,
                             'tax_zip', v_profile.tax_zip, 'cfdi_use', v_profile.cfdi_use, 'email', v_profile.invoice_email),
          p_payment_form, p_concepts,
          (select sum((c->>'base')::bigint) from jsonb_array_elements(p_concepts) c) / 100.0,
          (select sum((c->>'iva')::bigint) from jsonb_array_elements(p_concepts) c) / 100.0,
          v_order.total, p_provider, p_request_key, p_now)
  returning * into v_invoice;
  perform set_config('app.invoice_actor', '', true);
  perform set_config('app.invoice_note', '', true);
  return jsonb_build_object('id', v_invoice.id, 'status', v_invoice.status, 'replayed', false);
end
$$;
revoke all on function public.request_order_invoice(uuid, uuid, text, text, jsonb, text, timestamptz) from public, anon, authenticated;
grant execute on function public.request_order_invoice(uuid, uuid, text, text, jsonb, text, timestamptz) to service_role;

-- Claims facturas to issue or cancel: the given one when it is waiting, else those due (pending
-- or failed whose next attempt has come, cancellations to retry), and any whose issuer stopped
-- more than 5 minutes ago. Each claim adds one attempt; two processes never claim the same row.
create function public.claim_invoices(p_limit integer default 10, p_id uuid default null, p_provider text default null)
returns setof public.invoices
language plpgsql
security definer
set search_path = ''
as $$
begin
  return query
  with due as (
    select i.id from public.invoices i
     where (p_id is null or i.id = p_id)
       and (p_provider is null or i.provider = p_provider)
       and (
         (i.status in ('pending', 'failed') and i.next_attempt_at is not null and (p_id is not null or i.next_attempt_at <= now()))
         or (i.status = 'cancelling' and i.next_attempt_at is not null and (p_id is not null or i.next_attempt_at <= now()))
         or (i.status = 'issuing' and i.claimed_at < now() - interval '5 minutes')
       )
     order by i.next_attempt_at nulls first
     limit greatest(least(coalesce(p_limit, 10), 100), 1)
     for update skip locked
  )
  update public.invoices i
     set status = case when i.status = 'cancelling' then 'cancelling' else 'issuing' end,
         attempts = i.attempts + 1, claimed_at = now(), next_attempt_at = null
    from due where i.id = due.id
  returning i.*;
end
$$;
revoke all on function public.claim_invoices(integer, uuid, text) from public, anon, authenticated;
grant execute on function public.claim_invoices(integer, uuid, text) to service_role;

-- The provider issued the claimed factura (attempt p_attempt): it becomes 'issued'. A claim that
-- is no longer the current one (another process took it again) changes nothing and answers false.
create function public.complete_invoice(p_id uuid, p_attempt integer, p_provider_id text, p_cfdi_uuid text,
                                        p_series text default null, p_folio text default null)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_done boolean;
begin
  if p_provider_id is null or length(p_provider_id) not between 1 and 200 then
    raise exception 'Falta el identificador de la factura.' using errcode = 'P0001', detail = 'invalid_provider_id';
  end if;
  perform set_config('app.invoice_note', left(format('Folio fiscal %s', coalesce(p_cfdi_uuid, '—')), 1000), true);
  update public.invoices i
     set status = 'issued', provider_id = p_provider_id, cfdi_uuid = p_cfdi_uuid, series = p_series, folio = p_folio,
         issued_at = now(), last_error = null, next_attempt_at = null
   where i.id = p_id and i.status = 'issuing' and i.attempts = p_attempt;
  v_done := found;
  perform set_config('app.invoice_note', '', true);
  return v_done;
end
$$;
revoke all on function public.complete_invoice(uuid, integer, text, text, text, text) from public, anon, authenticated;
grant execute on function public.complete_invoice(uuid, integer, text, text, text, text) to service_role;

-- Attempt p_attempt failed: 'failed', retried at p_next_attempt_at (null: no more attempts).
-- A failed cancellation stays 'cancelling' and is retried the same way.
create function public.fail_invoice(p_id uuid, p_attempt integer, p_error text, p_next_attempt_at timestamptz)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_done boolean;
begin
  perform set_config('app.invoice_note', left(coalesce(p_error, ''), 1000), true);
  update public.invoices i
     set status = case when i.status = 'cancelling' then 'cancelling' else 'failed' end,
         last_error = left(coalesce(p_error, 'Error desconocido'), 1000), next_attempt_at = p_next_attempt_at
   where i.id = p_id and i.status in ('issuing', 'cancelling') and i.attempts = p_attempt;
  v_done := found;
  perform set_config('app.invoice_note', '', true);
  return v_done;
end
$$;
revoke all on function public.fail_invoice(uuid, integer, text, timestamptz) from public, anon, authenticated;
grant execute on function public.fail_invoice(uuid, integer, text, timestamptz) to service_role;

-- A refunded order's factura is cancelled: one never issued (pending, failed) at once; an issued
-- one goes to 'cancelling' with the motive ('02' errors without a related document, '03' the
-- operation did not happen: a refund), and the server cancels it at the provider. Answers the
-- facturas the server must cancel at the provider (none when there is nothing to do).
create function public.request_invoice_cancellation(p_order_id uuid, p_motive text, p_actor uuid default null)
returns setof public.invoices
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_motive not in ('02', '03') then
    raise exception 'Motivo de cancelación no válido.' using errcode = 'P0001', detail = 'invalid_motive';
  end if;
  perform 1 from public.orders o where o.id = p_order_id for update;
  perform set_config('app.invoice_actor', coalesce(p_actor::text, ''), true);
  perform set_config('app.invoice_note', 'Pedido reembolsado', true);
  update public.invoices i
     set status = 'cancelled', cancelled_at = now(), cancel_motive = p_motive, next_attempt_at = null
   where i.order_id = p_order_id and i.kind = 'order' and i.status in ('pending', 'failed');
  return query
  update public.invoices i
     set status = 'cancelling', cancel_motive = p_motive, cancel_requested_at = now(), attempts = 0,
         next_attempt_at = now(), last_error = null
   where i.order_id = p_order_id and i.kind = 'order' and i.status = 'issued'
  returning i.*;
  perform set_config('app.invoice_actor', '', true);
  perform set_config('app.invoice_note', '', true);
end
$$;
revoke all on function public.request_invoice_cancellation(uuid, text, uuid) from public, anon, authenticated;
grant execute on function public.request_invoice_cancellation(uuid, text, uuid) to service_role;

-- The provider cancelled it: 'cancelled'. Answers false when it was not being cancelled.
create function public.complete_invoice_cancellation(p_id uuid) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_done boolean;
begin
  perform set_config('app.invoice_note', 'Cancelada ante el SAT', true);
  update public.invoices i
     set status = 'cancelled', cancelled_at = now(), next_attempt_at = null, last_error = null
   where i.id = p_id and i.status = 'cancelling';
  v_done := found;
  perform set_config('app.invoice_note', '', true);
  return v_done;
end
$$;
revoke all on function public.complete_invoice_cancellation(uuid) from public, anon, authenticated;
grant execute on function public.complete_invoice_cancellation(uuid) to service_role;

-- The shopper was told (once) that their factura was cancelled.
create function public.mark_invoice_shopper_told(p_id uuid) returns boolean
language sql
security definer
set search_path = ''
as $$
  update public.invoices i set shopper_told_at = now() where i.id = p_id and i.shopper_told_at is null returning true
$$;
revoke all on function public.mark_invoice_shopper_told(uuid) from public, anon, authenticated;
grant execute on function public.mark_invoice_shopper_told(uuid) to service_role;

-- The month's paid orders that no factura covers (Mexico City month): the factura global's sales.
create function public.invoice_global_candidates(p_year integer, p_month integer)
returns table (order_id uuid, paid_at timestamptz, total numeric)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_from timestamptz;
begin
  if p_month not between 1 and 12 or p_year not between 2022 and 2100 then
    raise exception 'Mes no válido.' using errcode = 'P0001', detail = 'invalid_period';
  end if;
  v_from := make_timestamptz(p_year, p_month, 1, 0, 0, 0, 'America/Mexico_City');
  return query
  select o.id, o.paid_at, o.total
    from public.orders o
   where o.paid_at >= v_from and o.paid_at < v_from + interval '1 month'
     and public.order_is_invoiceable_status(o.status)
     and o.total > 0
     and not exists (select 1 from public.invoices i where i.order_id = o.id and i.kind = 'order' and i.status <> 'cancelled')
     and not exists (select 1 from public.invoice_orders io join public.invoices i on i.id = io.invoice_id
                      where io.order_id = o.id and i.status <> 'cancelled')
   order by o.paid_at, o.id;
end
$$;
revoke all on function public.invoice_global_candidates(integer, integer) from public, anon, authenticated;
grant execute on function public.invoice_global_candidates(integer, integer) to service_role;

-- The back office's preview of a month's factura global: how many sales, and their total.
create function public.admin_global_invoice_preview(p_year integer, p_month integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede ver la factura global.' using errcode = '42501', detail = 'not_admin';
  end if;
  return (
    select jsonb_build_object('orders', count(*), 'total', coalesce(sum(c.total), 0),
      'issued', exists (select 1 from public.invoices i where i.kind = 'global' and i.period_year = p_year
                          and i.period_month = p_month and i.status <> 'cancelled'))
      from public.invoice_global_candidates(p_year, p_month) c);
end
$$;
revoke all on function public.admin_global_invoice_preview(integer, integer) from public, anon, authenticated;
grant execute on function public.admin_global_invoice_preview(integer, integer) to authenticated, service_role;

-- Creates the month's factura global (queued to be issued) over exactly the orders the server
-- computed its concepts for: once the month is over (until then each shopper may still ask for
-- their own), once per month, and only when those orders are still the month's uninvoiced sales.
create function public.create_global_invoice(
  p_year integer, p_month integer, p_order_ids uuid[], p_concepts jsonb, p_customer jsonb,
  p_payment_form text, p_provider text, p_actor uuid, p_now timestamptz default now()
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_from timestamptz;
  v_expected uuid[];
  v_total numeric;
  v_invoice public.invoices%rowtype;
begin
  if p_month not between 1 and 12 or p_year not between 2022 and 2100 then
    raise exception 'Mes no válido.' using errcode = 'P0001', detail = 'invalid_period';
  end if;
  v_from := make_timestamptz(p_year, p_month, 1, 0, 0, 0, 'America/Mexico_City');
  if p_now < v_from + interval '1 month' then
    raise exception 'La factura global de un mes se emite cuando el mes termina.' using errcode = 'P0001', detail = 'month_open';
  end if;
  -- One factura global per month, even when two admins ask at once.
  perform pg_advisory_xact_lock(hashtext('invoice_global'), p_year * 100 + p_month);
  if exists (select 1 from public.invoices i where i.kind = 'global' and i.period_year = p_year
               and i.period_month = p_month and i.status <> 'cancelled') then
    raise exception 'La factura global de ese mes ya se emitió.' using errcode = 'P0001', detail = 'already_issued';
  end if;
  select array_agg(c.order_id order by c.order_id), sum(c.total) into v_expected, v_total
    from public.invoice_global_candidates(p_year, p_month) c;
  if v_expected is null then
    raise exception 'No hay ventas sin factura en ese mes.' using errcode = 'P0001', detail = 'nothing_to_invoice';
  end if;
  if v_expected <> (select array_agg(x order by x) from unnest(p_order_ids) x) then
    raise exception 'Las ventas del mes cambiaron; vuelve a revisar la vista previa.' using errcode = 'P0001', detail = 'candidates_changed';
  end if;
  if public.invoice_concepts_total(p_concepts) <> round(v_total * 100) then
    raise exception 'Los conceptos no suman el total de las ventas.' using errcode = 'P0001', detail = 'amount_mismatch';
  end if;
  perform set_config('app.invoice_actor', coalesce(p_actor::text, ''), true);
  perform set_config('app.invoice_note', format('Factura global %s/%s', lpad(p_month::text, 2, '0'), p_year), true);
  insert into public.invoices (kind, status, customer, payment_form, concepts, subtotal, iva, total, period_year, period_month,
                               provider, next_attempt_at)
  values ('global', 'pending', p_customer, p_payment_form, p_concepts,
          (select sum((c->>'base')::bigint) from jsonb_array_elements(p_concepts) c) / 100.0,
          (select sum((c->>'iva')::bigint) from jsonb_array_elements(p_concepts) c) / 100.0,
          v_total, p_year, p_month, p_provider, p_now)
  returning * into v_invoice;
  insert into public.invoice_orders (invoice_id, order_id, total)
  select v_invoice.id, c.order_id, c.total from public.invoice_global_candidates(p_year, p_month) c;
  perform set_config('app.invoice_actor', '', true);
  perform set_config('app.invoice_note', '', true);
  return jsonb_build_object('id', v_invoice.id, 'status', v_invoice.status, 'orders', array_length(v_expected, 1), 'total', v_total);
end
$$;
revoke all on function public.create_global_invoice(integer, integer, uuid[], jsonb, jsonb, text, text, uuid, timestamptz) from public, anon, authenticated;
grant execute on function public.create_global_invoice(integer, integer, uuid[], jsonb, jsonb, text, text, uuid, timestamptz) to service_role;
