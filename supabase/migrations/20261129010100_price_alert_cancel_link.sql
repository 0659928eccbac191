-- The price-drop e-mail's cancel link, as the restock e-mail has: each favorite carries its own
-- token (256 random bits, never guessable), the e-mail links to /avisos/cancelar?t=<token>, and
-- the link turns off that favorite's 'Avísame si baja de precio' without signing in (the favorite
-- itself stays). The token is the favorite owner's; nobody can set it through the API.
alter table public.favorites
  add column price_alert_token text not null unique
    default replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');
comment on column public.favorites.price_alert_token is
  'Turns off the favorite''s price alert from the price-drop e-mail''s link, without signing in.';

-- The queued e-mails now carry the favorite's token for a price drop (a restock's alert token as before).
create or replace function public.alert_mail_due(p_limit int default 100)
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
         q.units, q.old_price, q.new_price,
         case q.kind when 'restock' then a.cancel_token else f.price_alert_token end
    from public.alert_mail_queue q
    join auth.users u on u.id = q.user_id
    join public.products p on p.id = q.product_id
    left join public.card_offers o on o.id = q.offer_id
    left join public.stock_alerts a on a.id = q.stock_alert_id
    left join public.favorites f on f.id = q.favorite_id
   where q.mailed_at is null
   order by q.id
   limit least(greatest(coalesce(p_limit, 100), 0), 500)
$$;
revoke all on function public.alert_mail_due(int) from public, anon, authenticated;
grant execute on function public.alert_mail_due(int) to service_role;

-- What the cancel page shows for a price-drop link: the favorite's product (and offer) and whether
-- its price alert is still on ('waiting') or already off ('cancelled').
create function public.price_alert_by_token(p_token text)
returns table (product_id text, product_name text, offer_label text, state text)
language sql
stable
security definer
set search_path = ''
as $$
  select f.product_id, p.name,
         case when o.id is null then null
              else public.card_offer_label(o.condition, o.language, o.finish, o.grading_company, o.grade) end,
         case when f.price_alert then 'waiting' else 'cancelled' end
    from public.favorites f
    join public.products p on p.id = f.product_id
    left join public.card_offers o on o.id = f.offer_id
   where f.price_alert_token = p_token
$$;
revoke all on function public.price_alert_by_token(text) from public, anon, authenticated;
grant execute on function public.price_alert_by_token(text) to service_role;

-- The cancel link's button: a restock alert's token cancels that alert (as before); a favorite's
-- price-alert token turns its price alert off. 'cancelled', 'already' (off before) or 'unknown'.
create or replace function public.cancel_stock_alert_by_token(p_token text) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_alert public.stock_alerts;
  v_favorite public.favorites;
begin
  select * into v_alert from public.stock_alerts a where a.cancel_token = p_token for update;
  if found then
    if v_alert.cancelled_at is not null then
      return 'already';
    end if;
    update public.stock_alerts set cancelled_at = now() where id = v_alert.id;
    return 'cancelled';
  end if;
  select * into v_favorite from public.favorites f where f.price_alert_token = p_token for update;
  if not found then
    return 'unknown';
  end if;
  if not v_favorite.price_alert then
    return 'already';
  end if;
  update public.favorites set price_alert = false where id = v_favorite.id;
  return 'cancelled';
end;
$$;
revoke all on function public.cancel_stock_alert_by_token(text) from public, anon, authenticated;
grant execute on function public.cancel_stock_alert_by_token(text) to service_role;
