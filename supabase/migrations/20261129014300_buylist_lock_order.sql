-- Buylist locks always taken in one order (docs/buylist.md): the entries a submission touches in
-- id order, then the offers its copies go to in id order (as create_order locks offers), so a
-- cancellation, an expiry or a payment never waits in a circle with a submission or an order.
-- A line is read again under its submission's lock before it is reviewed.

/** Gives a submission's reserved units back to their entries, locking them in id order. */
create or replace function public.buylist_release_reservation(p_submission uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from public.buylist_entries e
   where e.id in (select l.entry_id from public.buylist_submission_lines l where l.submission_id = p_submission)
   order by e.id
     for update;
  update public.buylist_entries e
     set reserved = greatest(e.reserved - r.units, 0)
    from (select l.entry_id, sum(l.quantity)::int as units
            from public.buylist_submission_lines l
           where l.submission_id = p_submission
           group by l.entry_id) r
   where e.id = r.entry_id;
end
$$;

create or replace function public.buylist_settle(p_submission uuid, p_actor uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub public.buylist_submissions%rowtype;
  v_credit jsonb;
  v_group record;
  v_offer uuid;
  v_price numeric;
  v_new_products text[] := '{}';
  v_site text;
begin
  select * into v_sub from public.buylist_submissions s where s.id = p_submission for update;
  if exists (select 1 from public.buylist_payouts p where p.submission_id = p_submission) then
    return;
  end if;

  -- Rows locked in id order, as submit_buylist locks entries and create_order locks offers, so
  -- none of them waits for another in a circle.
  perform 1 from public.buylist_entries e
   where e.id in (select l.entry_id from public.buylist_submission_lines l where l.submission_id = p_submission)
   order by e.id
     for update;
  perform 1 from public.card_offers o
   where o.grading_company is null
     and exists (select 1 from public.buylist_submission_lines l
                  where l.submission_id = p_submission and l.quantity > l.rejected_quantity
                    and l.product_id = o.product_id and coalesce(l.final_condition, l.condition) = o.condition
                    and l.language = o.language and l.finish = o.finish)
   order by o.id
     for update;

  -- The reservation becomes units bought: the accepted copies count, the rejected ones are released.
  update public.buylist_entries e
     set reserved = greatest(e.reserved - r.units, 0), bought = e.bought + r.accepted
    from (select l.entry_id, sum(l.quantity)::int as units, sum(l.quantity - l.rejected_quantity)::int as accepted
            from public.buylist_submission_lines l where l.submission_id = p_submission group by l.entry_id) r
   where e.id = r.entry_id;

  -- Accepted copies enter inventory: the matching raw offer, or a new one.
  for v_group in
    select l.product_id, coalesce(l.final_condition, l.condition) as condition, l.language, l.finish,
           sum(l.quantity - l.rejected_quantity)::int as units, max(coalesce(l.final_unit_cash, l.unit_cash)) as paid
      from public.buylist_submission_lines l
     where l.submission_id = p_submission and l.quantity > l.rejected_quantity
     group by l.product_id, coalesce(l.final_condition, l.condition), l.language, l.finish
     order by 1, 2, 3, 4
  loop
    select o.id into v_offer from public.card_offers o
     where o.product_id = v_group.product_id and o.grading_company is null and o.condition = v_group.condition
       and o.language = v_group.language and o.finish = v_group.finish
       for update;
    if v_offer is null then
      -- The price of a new offer: the NM copy of the same language and finish (else the cheapest NM
      -- copy) times the condition's share; without an NM copy, what the shop paid divided by the
      -- default rule's percent (twice what it paid at 50 %).
      select round(min(o.price) * public.buylist_condition_share(v_group.condition) / 100, 2) into v_price
        from public.card_offers o
       where o.product_id = v_group.product_id and o.grading_company is null and o.condition = 'NM'
         and o.language = v_group.language and o.finish = v_group.finish;
      if v_price is null then
        select round(min(o.price) * public.buylist_condition_share(v_group.condition) / 100, 2) into v_price
          from public.card_offers o
         where o.product_id = v_group.product_id and o.grading_company is null and o.condition = 'NM';
      end if;
      if v_price is null or v_price <= 0 then
        select round(v_group.paid * 100 / coalesce(nullif(s.default_percent, 0), 50), 2) into v_price from public.buylist_settings s;
      end if;
      insert into public.card_offers (product_id, condition, language, finish, price, stock, position)
      values (v_group.product_id, v_group.condition, v_group.language, v_group.finish, v_price, v_group.units,
              coalesce((select max(o.position) + 1 from public.card_offers o where o.product_id = v_group.product_id), 0))
      returning id into v_offer;
      v_new_products := array_append(v_new_products, v_group.product_id);
    else
      update public.card_offers o set stock = o.stock + v_group.units where o.id = v_offer;
    end if;
    update public.buylist_submission_lines l set offer_id = v_offer
     where l.submission_id = p_submission and l.product_id = v_group.product_id
       and coalesce(l.final_condition, l.condition) = v_group.condition
       and l.language = v_group.language and l.finish = v_group.finish;
    v_offer := null;
  end loop;

  -- A new offer changes the product's page: ask every site the database builds for a rebuild of
  -- those products (stock alone is read live by the pages and never rebuilds).
  if cardinality(v_new_products) > 0 then
    for v_site in select distinct j.site from public.rebuild_jobs j loop
      perform public.request_catalogue_rebuild(v_site, 'buylist', v_new_products);
    end loop;
  end if;

  if v_sub.payout = 'saldo' then
    v_credit := public.store_credit_post(v_sub.user_id, round(v_sub.offer_credit * 100)::bigint, 'buylist_sale', null,
                                         'buylist', p_submission::text, p_actor, 'Venta ' || v_sub.code);
    insert into public.buylist_payouts (submission_id, user_id, method, amount, status, credit_entry_id, paid_at, paid_by)
    values (p_submission, v_sub.user_id, 'saldo', v_sub.offer_credit, 'pagado', (v_credit ->> 'id')::bigint, now(), p_actor);
    update public.buylist_submissions s set status = 'pagada', paid_at = now() where s.id = p_submission;
    perform public.buylist_event(p_submission, 'paid', 'aceptada', 'pagada', p_actor, 'Saldo a favor ' || public.buylist_money(v_sub.offer_credit));
    perform public.buylist_queue_mail(p_submission, 'paid');
  else
    insert into public.buylist_payouts (submission_id, user_id, method, amount, clabe, status)
    values (p_submission, v_sub.user_id, 'transferencia', v_sub.offer_cash, v_sub.clabe, 'pendiente');
    perform public.buylist_queue_mail(p_submission, 'accepted');
  end if;
end
$$;

create or replace function public.admin_buylist_review_line(
  p_line uuid,
  p_condition public.card_condition,
  p_rejected integer default 0,
  p_reason text default null
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_line public.buylist_submission_lines%rowtype;
  v_sub public.buylist_submissions%rowtype;
  v_cash numeric;
  v_credit numeric;
  v_reason text := nullif(btrim(coalesce(p_reason, '')), '');
begin
  perform public.buylist_require_admin();
  select * into v_line from public.buylist_submission_lines l where l.id = p_line;
  if not found then
    raise exception 'Línea no encontrada.' using errcode = 'P0001', detail = 'line_not_found';
  end if;
  v_sub := public.buylist_lock_submission(v_line.submission_id);
  -- Read again under the submission's lock: a split may have changed its quantity meanwhile.
  select * into v_line from public.buylist_submission_lines l where l.id = p_line;
  if v_sub.status not in ('recibida', 'en_revision') then
    raise exception 'Esta venta no está en revisión.' using errcode = 'P0001', detail = 'invalid_status:' || v_sub.status;
  end if;
  if p_condition is null then
    raise exception 'Indica la condición de la carta.' using errcode = 'P0001', detail = 'condition_required';
  end if;
  if p_rejected is null or p_rejected < 0 or p_rejected > v_line.quantity then
    raise exception 'Las cartas rechazadas deben ser entre 0 y %.', v_line.quantity using errcode = 'P0001', detail = 'invalid_rejected';
  end if;
  if p_rejected > 0 and v_reason is null then
    raise exception 'Indica por qué se rechazan las cartas.' using errcode = 'P0001', detail = 'reason_required';
  end if;
  if length(v_reason) > 300 then
    raise exception 'El motivo admite hasta 300 caracteres.' using errcode = 'P0001', detail = 'reason_too_long';
  end if;
  v_cash := public.buylist_unit_price(v_line.nm_price, p_condition, 'transferencia');
  v_credit := round(v_cash * (100 + v_sub.credit_bonus_percent) / 100, 2);
  update public.buylist_submission_lines l
     set reviewed_at = now(), final_condition = p_condition, rejected_quantity = p_rejected,
         reject_reason = case when p_rejected > 0 then v_reason end,
         final_unit_cash = v_cash, final_unit_credit = v_credit
   where l.id = v_line.id;
  if v_sub.status = 'recibida' then
    update public.buylist_submissions s set status = 'en_revision' where s.id = v_sub.id;
  end if;
  perform public.buylist_event(v_sub.id, 'line_reviewed', v_sub.status, 'en_revision', auth.uid(),
    format('%s: %s → %s, %s rechazada(s)%s', v_line.collector_number, v_line.condition, p_condition, p_rejected,
           case when p_rejected > 0 then ' (' || v_reason || ')' else '' end),
    v_line.id);
  return jsonb_build_object('lineId', v_line.id, 'condition', p_condition, 'accepted', v_line.quantity - p_rejected,
    'rejected', p_rejected, 'unitCash', v_cash, 'unitCredit', v_credit);
end
$$;

