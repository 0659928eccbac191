-- Credit notes (CFDI de egreso) against the factura global.
--
-- A sale the month's factura global covered cannot be taken out of it once the SAT stamped it.
-- When that sale is refunded (in full, or in part), the shop issues a credit note against the
-- global instead: TipoDeComprobante 'E', to the same receiver (público en general), related to
-- the global's folio fiscal with TipoRelacion '01' (nota de crédito de los documentos
-- relacionados), one concept for the refunded amount with its IVA broken out, the forma de pago
-- of the original sale.
--
--   invoices.kind 'credit_note'   one row per refund: order_id is the refunded sale, user_id is
--                                 null (the note, like the global, is to público en general and
--                                 no shopper reads it), related_invoice_id / related_cfdi_uuid the
--                                 global it credits, period_year / period_month the global's
--                                 (InformacionGlobal), request_key the refund's idempotency key.
--                                 It is issued through the same queue as every factura ('pending'
--                                 → 'issuing' → 'issued' or 'failed', retried with backoff).
--   request_credit_note           queues one (the same refund key again answers the same note),
--                                 never more than the part of the sale still not credited.
--   invoice_credit_notes_due      the refunded sales of an issued factura global whose refund has
--                                 no credit note yet, with the amount still to credit.
-- Nothing here touches the refund: the sweeper finds refunded sales after the fact.

alter table public.invoices drop constraint invoices_kind_check;
alter table public.invoices add constraint invoices_kind_check check (kind in ('order', 'global', 'credit_note'));
alter table public.invoices drop constraint invoices_check1;
alter table public.invoices add constraint invoices_order_kind_check check (kind in ('order', 'credit_note') or order_id is null);
alter table public.invoices drop constraint invoices_check2;
alter table public.invoices add constraint invoices_period_kind_check
  check ((kind in ('global', 'credit_note')) = (period_year is not null and period_month is not null));

alter table public.invoices
  add column related_invoice_id uuid references public.invoices (id) on delete restrict,
  add column related_cfdi_uuid text check (related_cfdi_uuid is null or related_cfdi_uuid ~ '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  add constraint invoices_credit_note_related_check
    check ((kind = 'credit_note') = (related_invoice_id is not null and related_cfdi_uuid is not null and request_key is not null));

comment on column public.invoices.related_invoice_id is
  'A credit note''s factura global (CfdiRelacionados, TipoRelacion 01).';
comment on column public.invoices.related_cfdi_uuid is
  'The folio fiscal of the factura a credit note is related to, as it was when the note was queued.';

-- One credit note per refund, whatever its status.
create unique index invoices_credit_note_refund_key on public.invoices (request_key) where kind = 'credit_note';
create index invoices_related_invoice_id_idx on public.invoices (related_invoice_id) where related_invoice_id is not null;

/** The idempotency key of an order's refund: the order and the refund the order recorded. */
create function public.order_refund_key(p_order_id uuid, p_refund_ref text, p_refunded_at timestamptz) returns text
language sql
immutable
set search_path = ''
as $$
  select 'refund:' || p_order_id::text || ':' || left(md5(coalesce(p_refund_ref, '') || '|' || coalesce(extract(epoch from p_refunded_at)::text, '')), 16)
$$;
revoke all on function public.order_refund_key(uuid, text, timestamptz) from public, anon, authenticated;
grant execute on function public.order_refund_key(uuid, text, timestamptz) to service_role;

-- Queues the credit note of one refund (p_refund_key) of a sale covered by an issued factura
-- global, for p_amount centavos (IVA included), with the concepts the server computed. The same
-- key again answers the same note ('replayed'); the amount may not exceed the sale's part of the
-- global minus what earlier credit notes already credited.
create function public.request_credit_note(
  p_order_id uuid, p_refund_key text, p_amount bigint, p_concepts jsonb, p_payment_form text,
  p_provider text, p_actor uuid default null
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_existing public.invoices%rowtype;
  v_global public.invoices%rowtype;
  v_sale numeric;
  v_credited bigint;
  v_invoice public.invoices%rowtype;
begin
  if p_refund_key is null or length(p_refund_key) not between 8 and 100 then
    raise exception 'Falta la clave del reembolso.' using errcode = 'P0001', detail = 'invalid_key';
  end if;
  perform 1 from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'Pedido no encontrado.' using errcode = 'P0001', detail = 'order_not_found';
  end if;
  select * into v_existing from public.invoices i where i.kind = 'credit_note' and i.request_key = p_refund_key;
  if found then
    if v_existing.order_id is distinct from p_order_id then
      raise exception 'La clave del reembolso ya se usó en otro pedido.' using errcode = 'P0001', detail = 'invalid_key';
    end if;
    return jsonb_build_object('id', v_existing.id, 'status', v_existing.status, 'replayed', true);
  end if;
  select i.* into v_global
    from public.invoice_orders io join public.invoices i on i.id = io.invoice_id
   where io.order_id = p_order_id and i.kind = 'global' and i.status <> 'cancelled'
   for update of i;
  if not found then
    raise exception 'El pedido no está en una factura global.' using errcode = 'P0001', detail = 'not_in_global_invoice';
  end if;
  if v_global.status <> 'issued' or v_global.cfdi_uuid is null then
    raise exception 'La factura global del pedido todavía no está emitida.' using errcode = 'P0001', detail = 'global_not_issued';
  end if;
  if p_provider is distinct from v_global.provider then
    raise exception 'La nota de crédito se emite con el proveedor de la factura global.' using errcode = 'P0001', detail = 'other_provider';
  end if;
  select io.total into v_sale from public.invoice_orders io where io.invoice_id = v_global.id and io.order_id = p_order_id;
  select coalesce(sum(round(i.total * 100)), 0)::bigint into v_credited
    from public.invoices i
   where i.kind = 'credit_note' and i.related_invoice_id = v_global.id and i.order_id = p_order_id and i.status <> 'cancelled';
  if p_amount is null or p_amount <= 0 or p_amount > round(v_sale * 100)::bigint - v_credited then
    raise exception 'El importe de la nota de crédito supera lo que falta por acreditar de la venta.' using errcode = 'P0001', detail = 'amount_exceeds_sale';
  end if;
  if p_payment_form is null or p_payment_form !~ '^[0-9]{2}$' then
    raise exception 'No se conoce la forma de pago de este pedido.' using errcode = 'P0001', detail = 'unknown_payment_form';
  end if;
  if public.invoice_concepts_total(p_concepts) <> p_amount then
    raise exception 'Los conceptos no suman el importe reembolsado.' using errcode = 'P0001', detail = 'amount_mismatch';
  end if;
  perform set_config('app.invoice_actor', coalesce(p_actor::text, ''), true);
  perform set_config('app.invoice_note', 'Nota de crédito por reembolso', true);
  insert into public.invoices (kind, order_id, user_id, status, customer, payment_form, concepts, subtotal, iva, total,
                               period_year, period_month, provider, request_key, related_invoice_id, related_cfdi_uuid,
                               next_attempt_at)
  values ('credit_note', p_order_id, null, 'pending', v_global.customer - 'email', p_payment_form, p_concepts,
          (select sum((c->>'base')::bigint) from jsonb_array_elements(p_concepts) c) / 100.0,
          (select sum((c->>'iva')::bigint) from jsonb_array_elements(p_concepts) c) / 100.0,
          p_amount / 100.0, v_global.period_year, v_global.period_month, v_global.provider, p_refund_key,
          v_global.id, v_global.cfdi_uuid, now())
  returning * into v_invoice;
  perform set_config('app.invoice_actor', '', true);
  perform set_config('app.invoice_note', '', true);
  return jsonb_build_object('id', v_invoice.id, 'status', v_invoice.status, 'replayed', false);
end
$$;
revoke all on function public.request_credit_note(uuid, text, bigint, jsonb, text, text, uuid) from public, anon, authenticated;
grant execute on function public.request_credit_note(uuid, text, bigint, jsonb, text, text, uuid) to service_role;

-- Refunded sales of an issued factura global whose refund has no credit note yet: the refund's
-- key, what is still to credit (the sale's part of the global minus earlier credit notes, in
-- centavos) and how the sale was paid (for its forma de pago). Only the given provider's globals.
create function public.invoice_credit_notes_due(p_provider text, p_limit integer default 50)
returns table (order_id uuid, refund_key text, amount bigint, payment jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select o.id, public.order_refund_key(o.id, o.refund_ref, o.refunded_at),
         round(io.total * 100)::bigint - coalesce((
           select sum(round(n.total * 100))::bigint from public.invoices n
            where n.kind = 'credit_note' and n.related_invoice_id = g.id and n.order_id = o.id and n.status <> 'cancelled'), 0),
         jsonb_strip_nulls(jsonb_build_object(
           'payment_method', o.payment_method, 'total', o.total, 'credit_applied', o.credit_applied,
           'card_funding', to_jsonb(o)->'card_funding', 'installments', to_jsonb(o)->'installments'))
    from public.invoice_orders io
    join public.invoices g on g.id = io.invoice_id and g.kind = 'global' and g.status = 'issued' and g.provider = p_provider
    join public.orders o on o.id = io.order_id and o.status = 'Reembolsado'
   where io.total > 0
     and not exists (select 1 from public.invoices n
                      where n.kind = 'credit_note' and n.request_key = public.order_refund_key(o.id, o.refund_ref, o.refunded_at))
     and round(io.total * 100)::bigint > coalesce((
           select sum(round(n.total * 100))::bigint from public.invoices n
            where n.kind = 'credit_note' and n.related_invoice_id = g.id and n.order_id = o.id and n.status <> 'cancelled'), 0)
   order by o.refunded_at nulls last, o.id
   limit greatest(least(coalesce(p_limit, 50), 200), 1)
$$;
revoke all on function public.invoice_credit_notes_due(text, integer) from public, anon, authenticated;
grant execute on function public.invoice_credit_notes_due(text, integer) to service_role;
