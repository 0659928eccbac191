-- A restock alert stays until the shopper cancels it (from the account's Configuración or the
-- e-mail's link), so a shopper told of one restock who missed the units hears of the next one too.
-- Each restock still tells each alert at most once (a unique key on the alert and the restock),
-- and picks, up to its cap, the alerts never told first (oldest first), then those told longest
-- ago. notified_at and restock_event_id record the last time an alert was told.

alter table public.alert_mail_queue drop constraint alert_mail_queue_stock_alert_id_key;
alter table public.alert_mail_queue add constraint alert_mail_queue_once_per_restock unique (stock_alert_id, restock_event_id);

drop index public.stock_alerts_one_active;
create unique index stock_alerts_one_active on public.stock_alerts
  (user_id, product_id, coalesce(offer_id, '00000000-0000-0000-0000-000000000000'::uuid))
  where cancelled_at is null;
drop index public.stock_alerts_waiting_idx;
create index stock_alerts_waiting_idx on public.stock_alerts (product_id, offer_id, created_at)
  where cancelled_at is null;

create or replace function public.fire_restock_alerts(p_product_id text, p_offer_id uuid, p_units int, p_also_product boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_event bigint;
  v_cap int := public.restock_alert_cap(p_units);
  v_fired int;
begin
  if p_units <= 0 then
    return;
  end if;
  if not exists (
    select 1 from public.stock_alerts a
     where a.product_id = p_product_id
       and a.cancelled_at is null
       and (a.offer_id is not distinct from p_offer_id or (p_also_product and a.offer_id is null))
  ) then
    return;
  end if;
  insert into public.restock_events (product_id, offer_id, units, cap)
  values (p_product_id, p_offer_id, p_units, v_cap)
  returning id into v_event;

  with picked as (
    select a.id
      from public.stock_alerts a
     where a.product_id = p_product_id
       and a.cancelled_at is null
       and (a.offer_id is not distinct from p_offer_id or (p_also_product and a.offer_id is null))
       and public.notification_allowed(a.user_id, 'restock')
     order by a.notified_at nulls first, a.created_at, a.id
     limit v_cap
     for update skip locked
  ), fired as (
    update public.stock_alerts a
       set notified_at = now(), restock_event_id = v_event
      from picked
     where a.id = picked.id
    returning a.id, a.user_id, a.offer_id
  ), queued as (
    insert into public.alert_mail_queue (kind, user_id, product_id, offer_id, stock_alert_id, restock_event_id, units)
    select 'restock', f.user_id, p_product_id, f.offer_id, f.id, v_event, p_units from fired f
    returning 1
  )
  select count(*) into v_fired from queued;

  update public.restock_events set alerts_fired = v_fired where id = v_event;
end;
$$;

create or replace function public.cancel_stock_alert(p_alert_id uuid) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.stock_alerts a
     set cancelled_at = now()
   where a.id = p_alert_id
     and a.user_id = (select auth.uid())
     and a.cancelled_at is null;
  return found;
end;
$$;

-- state: 'waiting' (told of a restock or not yet) or 'cancelled'.
create or replace function public.stock_alert_by_token(p_token text)
returns table (product_id text, product_name text, offer_label text, state text)
language sql
stable
security definer
set search_path = ''
as $$
  select a.product_id, p.name,
         case when o.id is null then null
              else public.card_offer_label(o.condition, o.language, o.finish, o.grading_company, o.grade) end,
         case when a.cancelled_at is not null then 'cancelled' else 'waiting' end
    from public.stock_alerts a
    join public.products p on p.id = a.product_id
    left join public.card_offers o on o.id = a.offer_id
   where a.cancel_token = p_token
$$;

create or replace function public.cancel_stock_alert_by_token(p_token text) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_alert public.stock_alerts;
begin
  select * into v_alert from public.stock_alerts a where a.cancel_token = p_token for update;
  if not found then
    return 'unknown';
  end if;
  if v_alert.cancelled_at is not null then
    return 'already';
  end if;
  update public.stock_alerts set cancelled_at = now() where id = v_alert.id;
  return 'cancelled';
end;
$$;

-- Demand counts the alerts of what is sold out now (no units, or not available).
create or replace function public.admin_stock_demand()
returns table (
  product_id text, product_name text, offer_id uuid, offer_label text,
  waiting bigint, oldest timestamptz, stock int, available boolean
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede ver la demanda.' using errcode = '42501', detail = 'not_admin';
  end if;
  return query
    select a.product_id, p.name, a.offer_id,
           case when o.id is null then null
                else public.card_offer_label(o.condition, o.language, o.finish, o.grading_company, o.grade) end,
           count(*), min(a.created_at),
           case when o.id is null then p.stock else o.stock end,
           p.available
      from public.stock_alerts a
      join public.products p on p.id = a.product_id
      left join public.card_offers o on o.id = a.offer_id
     where a.cancelled_at is null
       and (not p.available or (case when o.id is null then p.stock else o.stock end) = 0)
     group by a.product_id, p.name, p.stock, p.available, a.offer_id, o.id, o.condition, o.language, o.finish, o.grading_company, o.grade, o.stock
     order by count(*) desc, min(a.created_at), a.product_id;
end;
$$;
