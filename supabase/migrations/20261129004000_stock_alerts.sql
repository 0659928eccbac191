-- Restock alerts ('Avísame cuando llegue'), price-drop alerts on favorites, and each shopper's
-- notification settings.
--
-- A signed-in shopper asks to be told when a sold-out product (or one offer of a single) comes
-- back: a row of stock_alerts. When the stock comes back (0 -> n, or an unavailable product made
-- available again), by any path (an admin edit, a cancelled or expired order returning units), a
-- trigger on the stock columns records a restock_events row and picks the alerts that fire, oldest
-- first, at most the cap (restock_alert_cap: n + max(2, ceil(n * 0.5)), never more than 200), and
-- queues one alert_mail_queue row for each. Each alert fires once (notified_at, and a unique key on
-- the queue), so two transactions restocking at once never notify the same shopper twice: they
-- serialize on the restocked row, and alerts picked by one are skipped (for update skip locked) or
-- already notified for the other. Alerts not picked stay for the next restock. The server's sweeper
-- turns each queued row into an e-mail of the mail outbox (its dedupe key is the queue row's id) and
-- marks the row mailed.
--
-- A favorite with price_alert on remembers the price it had when the shopper opted in (or when the
-- last alert was sent): when the price of the product (or offer) goes below it, one e-mail is queued
-- for that favorite and the remembered price becomes the new one.

-- Each shopper's notification settings; no row means every setting is on.
create table public.notification_settings (
  user_id uuid primary key default auth.uid() references auth.users (id) on delete cascade,
  restock_alerts boolean not null default true,
  price_alerts boolean not null default true,
  preorder_emails boolean not null default true,
  updated_at timestamptz not null default now()
);
create trigger notification_settings_set_updated_at before update on public.notification_settings
  for each row execute function public.set_updated_at();

alter table public.notification_settings enable row level security;
create policy "Notification settings: read own" on public.notification_settings
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Notification settings: create own" on public.notification_settings
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "Notification settings: change own" on public.notification_settings
  for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
revoke all on public.notification_settings from anon, authenticated;
grant select on public.notification_settings to authenticated;
grant insert (restock_alerts, price_alerts, preorder_emails) on public.notification_settings to authenticated;
grant update (restock_alerts, price_alerts, preorder_emails) on public.notification_settings to authenticated;
grant all on public.notification_settings to service_role;

-- Whether the shopper wants e-mails of this kind ('restock', 'price', 'preorder').
create function public.notification_allowed(p_user uuid, p_kind text) returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce((
    select case p_kind
             when 'restock' then s.restock_alerts
             when 'price' then s.price_alerts
             when 'preorder' then s.preorder_emails
             else true
           end
      from public.notification_settings s
     where s.user_id = p_user
  ), true)
$$;
revoke all on function public.notification_allowed(uuid, text) from public, anon, authenticated;
grant execute on function public.notification_allowed(uuid, text) to service_role;

create table public.stock_alerts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  product_id text not null references public.products (id) on update cascade on delete cascade,
  -- One offer of a single card; null for the product as a whole.
  offer_id uuid references public.card_offers (id) on delete cascade,
  created_at timestamptz not null default now(),
  -- When the alert fired (and by which restock); it does not fire again.
  notified_at timestamptz,
  restock_event_id bigint,
  cancelled_at timestamptz,
  -- Cancels the alert from the e-mail's link without signing in: 256 random bits, never guessable.
  cancel_token text not null unique
    default replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''),
  check ((notified_at is null) = (restock_event_id is null))
);
-- One waiting alert per product (or offer) per shopper.
create unique index stock_alerts_one_active on public.stock_alerts
  (user_id, product_id, coalesce(offer_id, '00000000-0000-0000-0000-000000000000'::uuid))
  where notified_at is null and cancelled_at is null;
-- The fan-out reads the waiting alerts of one product or offer, oldest first.
create index stock_alerts_waiting_idx on public.stock_alerts (product_id, offer_id, created_at)
  where notified_at is null and cancelled_at is null;
create index stock_alerts_user_idx on public.stock_alerts (user_id, created_at desc);

-- A new alert: the offer is of that product, and the product (or offer) is sold out now.
create function public.stock_alerts_before_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_product public.products;
  v_offer_stock int;
begin
  select * into v_product from public.products p where p.id = new.product_id;
  if not found then
    raise exception 'Ese producto no existe.' using errcode = '23503', detail = 'product_not_found';
  end if;
  if new.offer_id is not null then
    select o.stock into v_offer_stock from public.card_offers o where o.id = new.offer_id and o.product_id = new.product_id;
    if not found then
      raise exception 'La opción elegida no es de este producto.' using errcode = '23514', detail = 'offer_not_of_product';
    end if;
    if v_product.available and v_offer_stock > 0 then
      raise exception 'Esta opción tiene existencias: agrégala al carrito.' using errcode = '23514', detail = 'in_stock';
    end if;
  elsif v_product.available and (
    v_product.stock > 0 or exists (select 1 from public.card_offers o where o.product_id = new.product_id and o.stock > 0)
  ) then
    raise exception 'Este producto tiene existencias: agrégalo al carrito.' using errcode = '23514', detail = 'in_stock';
  end if;
  return new;
end;
$$;
revoke all on function public.stock_alerts_before_insert() from public, anon, authenticated;
create trigger stock_alerts_before_insert before insert on public.stock_alerts
  for each row execute function public.stock_alerts_before_insert();

alter table public.stock_alerts enable row level security;
create policy "Stock alerts: read own" on public.stock_alerts
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Stock alerts: ask for own" on public.stock_alerts
  for insert to authenticated with check (user_id = (select auth.uid()));
revoke all on public.stock_alerts from anon, authenticated;
grant select (id, user_id, product_id, offer_id, created_at, notified_at, cancelled_at) on public.stock_alerts to authenticated;
grant insert (product_id, offer_id) on public.stock_alerts to authenticated;
grant all on public.stock_alerts to service_role;

-- The signed-in shopper cancels one of their own waiting alerts; false when there is none.
create function public.cancel_stock_alert(p_alert_id uuid) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.stock_alerts a
     set cancelled_at = now()
   where a.id = p_alert_id
     and a.user_id = (select auth.uid())
     and a.cancelled_at is null
     and a.notified_at is null;
  return found;
end;
$$;
revoke all on function public.cancel_stock_alert(uuid) from public, anon;
grant execute on function public.cancel_stock_alert(uuid) to authenticated;

-- The alert a cancel link names (for the page the link opens): what it is for and its state.
create function public.stock_alert_by_token(p_token text)
returns table (product_id text, product_name text, offer_label text, state text)
language sql
stable
security definer
set search_path = ''
as $$
  select a.product_id, p.name,
         case when o.id is null then null
              else public.card_offer_label(o.condition, o.language, o.finish, o.grading_company, o.grade) end,
         case when a.cancelled_at is not null then 'cancelled'
              when a.notified_at is not null then 'notified'
              else 'waiting' end
    from public.stock_alerts a
    join public.products p on p.id = a.product_id
    left join public.card_offers o on o.id = a.offer_id
   where a.cancel_token = p_token
$$;
revoke all on function public.stock_alert_by_token(text) from public, anon, authenticated;
grant execute on function public.stock_alert_by_token(text) to service_role;

-- Cancels the alert of a cancel link: 'cancelled', 'already' (cancelled or fired before), or
-- 'unknown' (no such token).
create function public.cancel_stock_alert_by_token(p_token text) returns text
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
  if v_alert.cancelled_at is not null or v_alert.notified_at is not null then
    return 'already';
  end if;
  update public.stock_alerts set cancelled_at = now() where id = v_alert.id;
  return 'cancelled';
end;
$$;
revoke all on function public.cancel_stock_alert_by_token(text) from public, anon, authenticated;
grant execute on function public.cancel_stock_alert_by_token(text) to service_role;

-- Every restock that had shoppers waiting: what came back, the cap, and how many alerts fired.
create table public.restock_events (
  id bigint generated always as identity primary key,
  product_id text not null references public.products (id) on update cascade on delete cascade,
  offer_id uuid references public.card_offers (id) on delete cascade,
  units int not null check (units > 0),
  cap int not null check (cap > 0),
  alerts_fired int not null default 0 check (alerts_fired >= 0 and alerts_fired <= cap),
  created_at timestamptz not null default now()
);
create index restock_events_product_idx on public.restock_events (product_id, created_at desc);
alter table public.restock_events enable row level security;
revoke all on public.restock_events from public, anon, authenticated;
grant all on public.restock_events to service_role;

-- The e-mails the alerts owe: one row per fired restock alert or price drop, mailed by the server.
create table public.alert_mail_queue (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('restock', 'price_drop')),
  user_id uuid not null references auth.users (id) on delete cascade,
  product_id text not null references public.products (id) on update cascade on delete cascade,
  offer_id uuid references public.card_offers (id) on delete cascade,
  stock_alert_id uuid unique references public.stock_alerts (id) on delete cascade,
  restock_event_id bigint references public.restock_events (id) on delete cascade,
  favorite_id uuid references public.favorites (id) on delete cascade,
  units int,
  old_price numeric(12,2),
  new_price numeric(12,2),
  created_at timestamptz not null default now(),
  mailed_at timestamptz,
  check ((kind = 'restock') = (stock_alert_id is not null and restock_event_id is not null)),
  check ((kind = 'price_drop') = (favorite_id is not null and old_price is not null and new_price is not null))
);
create index alert_mail_queue_due_idx on public.alert_mail_queue (id) where mailed_at is null;
alter table public.alert_mail_queue enable row level security;
revoke all on public.alert_mail_queue from public, anon, authenticated;
grant all on public.alert_mail_queue to service_role;

-- How many alerts one restock of n units may fire: n + max(2, ceil(n * 0.5)), at most 200. A few
-- more than the units, since some shoppers told will not buy; never the whole list for one unit.
create function public.restock_alert_cap(p_units int) returns int
language sql
immutable
set search_path = ''
as $$
  select least(greatest(p_units, 1) + greatest(2, ceil(greatest(p_units, 1) * 0.5)::int), 200)
$$;
grant execute on function public.restock_alert_cap(int) to service_role;

-- One restock of a product (p_offer_id null) or an offer: records it when shoppers wait, and fires
-- their alerts (oldest first, up to the cap, shoppers who turned restock alerts off skipped).
-- p_also_product: an offer of a single came back while no other offer had stock, so the alerts on
-- the product as a whole fire too (after the offer's own).
create function public.fire_restock_alerts(p_product_id text, p_offer_id uuid, p_units int, p_also_product boolean)
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
       and a.notified_at is null and a.cancelled_at is null
       and (a.offer_id is not distinct from p_offer_id or (p_also_product and a.offer_id is null))
  ) then
    return;
  end if;
  insert into public.restock_events (product_id, offer_id, units, cap)
  values (p_product_id, p_offer_id, p_units, v_cap)
  returning id into v_event;

  with picked as (
    select a.id, a.user_id
      from public.stock_alerts a
     where a.product_id = p_product_id
       and a.notified_at is null and a.cancelled_at is null
       and (a.offer_id is not distinct from p_offer_id or (p_also_product and a.offer_id is null))
       and public.notification_allowed(a.user_id, 'restock')
     order by (a.offer_id is null), a.created_at, a.id
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
revoke all on function public.fire_restock_alerts(text, uuid, int, boolean) from public, anon, authenticated;

-- Products: a sold-out product (no stock, or not available) that has stock and is available again.
create function public.products_restock_alerts() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.available and new.stock > 0 and not (old.available and old.stock > 0) then
    -- Sold out before, so every unit in stock now came back.
    perform public.fire_restock_alerts(new.id, null, new.stock, false);
  end if;
  return null;
end;
$$;
revoke all on function public.products_restock_alerts() from public, anon, authenticated;
create trigger products_restock_alerts after update of stock, available on public.products
  for each row execute function public.products_restock_alerts();

-- Offers: an offer back from 0 units. The product's own alerts fire too when it was the single's
-- first offer in stock again.
create function public.card_offers_restock_alerts() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.stock = 0 and new.stock > 0 and exists (select 1 from public.products p where p.id = new.product_id and p.available) then
    perform public.fire_restock_alerts(
      new.product_id, new.id, new.stock,
      not exists (select 1 from public.card_offers o where o.product_id = new.product_id and o.id <> new.id and o.stock > 0)
    );
  end if;
  return null;
end;
$$;
revoke all on function public.card_offers_restock_alerts() from public, anon, authenticated;
create trigger card_offers_restock_alerts after update of stock on public.card_offers
  for each row execute function public.card_offers_restock_alerts();

-- Price alerts on favorites: the shopper turns them on or off on their own rows; the price they
-- compare with is the database's, taken when the alert is turned on.
alter table public.favorites
  add column price_alert boolean not null default false,
  add column price_alert_base numeric(12,2);

create function public.favorites_price_alert_base() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.price_alert is distinct from old.price_alert then
    if new.price_alert then
      new.price_alert_base := case
        when new.offer_id is null then (select p.price from public.products p where p.id = new.product_id)
        else (select o.price from public.card_offers o where o.id = new.offer_id)
      end;
    else
      new.price_alert_base := null;
    end if;
  end if;
  return new;
end;
$$;
revoke all on function public.favorites_price_alert_base() from public, anon, authenticated;
create trigger favorites_price_alert_base before update of price_alert on public.favorites
  for each row execute function public.favorites_price_alert_base();

create policy "Favorites: price alert on own" on public.favorites
  for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
grant update (price_alert) on public.favorites to authenticated;

-- A price below what a favorite's alert remembers queues one e-mail for it, and the alert then
-- remembers the new price.
create function public.fire_price_alerts(p_product_id text, p_offer_id uuid, p_price numeric) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  with due as (
    select f.id, f.user_id, f.price_alert_base
      from public.favorites f
     where f.product_id = p_product_id
       and f.offer_id is not distinct from p_offer_id
       and f.price_alert
       and f.price_alert_base > p_price
       and public.notification_allowed(f.user_id, 'price')
     for update
  ), queued as (
    insert into public.alert_mail_queue (kind, user_id, product_id, offer_id, favorite_id, old_price, new_price)
    select 'price_drop', d.user_id, p_product_id, p_offer_id, d.id, d.price_alert_base, p_price from due d
    returning favorite_id
  )
  update public.favorites f set price_alert_base = p_price from queued q where f.id = q.favorite_id;
end;
$$;
revoke all on function public.fire_price_alerts(text, uuid, numeric) from public, anon, authenticated;

create function public.products_price_alerts() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.price < old.price then
    perform public.fire_price_alerts(new.id, null, new.price);
  end if;
  return null;
end;
$$;
revoke all on function public.products_price_alerts() from public, anon, authenticated;
create trigger products_price_alerts after update of price on public.products
  for each row execute function public.products_price_alerts();

create function public.card_offers_price_alerts() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.price < old.price then
    perform public.fire_price_alerts(new.product_id, new.id, new.price);
  end if;
  return null;
end;
$$;
revoke all on function public.card_offers_price_alerts() from public, anon, authenticated;
create trigger card_offers_price_alerts after update of price on public.card_offers
  for each row execute function public.card_offers_price_alerts();

-- The alert e-mails not mailed yet, with what the e-mail says (the server's sweeper reads them).
create function public.alert_mail_due(p_limit int default 100)
returns table (
  id bigint, kind text, email text, product_id text, product_name text, offer_label text,
  units int, old_price numeric, new_price numeric, cancel_token text
)
language sql
stable
security definer
set search_path = ''
as $$
  select q.id, q.kind, u.email::text, q.product_id, p.name,
         case when o.id is null then null
              else public.card_offer_label(o.condition, o.language, o.finish, o.grading_company, o.grade) end,
         q.units, q.old_price, q.new_price, a.cancel_token
    from public.alert_mail_queue q
    join auth.users u on u.id = q.user_id
    join public.products p on p.id = q.product_id
    left join public.card_offers o on o.id = q.offer_id
    left join public.stock_alerts a on a.id = q.stock_alert_id
   where q.mailed_at is null
   order by q.id
   limit least(greatest(coalesce(p_limit, 100), 0), 500)
$$;
revoke all on function public.alert_mail_due(int) from public, anon, authenticated;
grant execute on function public.alert_mail_due(int) to service_role;

-- The newsletter from the account's settings: whether the signed-in shopper's address is on the
-- list, and putting it on or taking it off.
create function public.my_newsletter_subscribed() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.newsletter_subscribers s
      join auth.users u on lower(btrim(u.email)) = s.email
     where u.id = (select auth.uid())
  )
$$;
revoke all on function public.my_newsletter_subscribed() from public, anon;
grant execute on function public.my_newsletter_subscribed() to authenticated;

create function public.set_my_newsletter(p_subscribed boolean) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text;
begin
  select lower(btrim(u.email)) into v_email from auth.users u where u.id = (select auth.uid());
  if v_email is null then
    raise exception 'Inicia sesión para cambiar tus correos.' using errcode = '42501', detail = 'not_signed_in';
  end if;
  if p_subscribed then
    insert into public.newsletter_subscribers (email) values (v_email) on conflict (email) do nothing;
  else
    delete from public.newsletter_subscribers where email = v_email;
  end if;
  return p_subscribed;
end;
$$;
revoke all on function public.set_my_newsletter(boolean) from public, anon;
grant execute on function public.set_my_newsletter(boolean) to authenticated;

-- The back office's demand: how many shoppers wait for each product or offer, most wanted first.
create function public.admin_stock_demand()
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
     where a.notified_at is null and a.cancelled_at is null
     group by a.product_id, p.name, p.stock, p.available, a.offer_id, o.id, o.condition, o.language, o.finish, o.grading_company, o.grade, o.stock
     order by count(*) desc, min(a.created_at), a.product_id;
end;
$$;
revoke all on function public.admin_stock_demand() from public, anon;
grant execute on function public.admin_stock_demand() to authenticated;
