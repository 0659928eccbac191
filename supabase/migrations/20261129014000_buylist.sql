-- 'Vende tus cartas': the shop buys singles from its shoppers (docs/buylist.md).
--
--   buylist_settings          one row: the share of the NM price each condition pays (LP 80, MP 60,
--                             HP 40, DMG 20 %), the default rule (a percent of the cheapest NM
--                             offer's selling price; null = no default rule), the saldo a favor
--                             bonus, the minimum submission, the default per-shopper limit per
--                             printing and the days a submission holds its reservation.
--   buylist_entries           what the shop buys: per printing, optionally per language and
--                             finish (null = any), whether it buys it now, how many it wants in
--                             all, the NM price (null = default rule), a per-shopper limit, and the
--                             units reserved by open submissions and bought so far (written only by
--                             the functions below).
--   buylist_items             (view) the published buylist with prices per condition, in
--                             transfer (cash) and in saldo a favor (bonus included), and the units
--                             the shop still wants (wanted - reserved - bought).
--   buylist_sell_list_items   a signed-in shopper's sell list (their own rows only).
--   buylist_submissions       a shopper's submission ('V-000123'), its status and totals.
--   buylist_submission_lines  its lines: what was declared, priced by the database, and what the
--                             owner's review made of it.
--   buylist_payouts           the payment of an accepted submission, one per submission: a credit
--                             to the balance or a transfer the owner marks paid with its reference.
--   buylist_events            every change of a submission or line: from, to, who, when, note.
--
-- Money is in pesos, numeric(12,2), as orders and offers. Refusals are SQLSTATE P0001 with a
-- Spanish message and a machine-readable detail.

-- A buylist sale is a credit of its own kind in the balance's ledger.
alter table public.store_credit_entries drop constraint if exists store_credit_entries_reason_check;
alter table public.store_credit_entries add constraint store_credit_entries_reason_check
  check (reason in ('oxxo_payment', 'refund', 'order_payment', 'order_returned', 'adjustment', 'buylist_sale'));

/** True for an 18-digit CLABE whose last digit is its check digit (weights 3, 7, 1). */
create function public.clabe_is_valid(p_clabe text) returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(p_clabe ~ '^[0-9]{18}$', false)
     and (10 - (
           select sum(((substr(p_clabe, i, 1)::int) * (array[3, 7, 1])[((i - 1) % 3) + 1]) % 10) % 10
             from generate_series(1, 17) as i
         )) % 10 = substr(p_clabe, 18, 1)::int
$$;
grant execute on function public.clabe_is_valid(text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Rules

create table public.buylist_settings (
  id boolean primary key default true check (id),
  share_lp numeric(5,2) not null default 80 check (share_lp between 0 and 100),
  share_mp numeric(5,2) not null default 60 check (share_mp between 0 and 100),
  share_hp numeric(5,2) not null default 40 check (share_hp between 0 and 100),
  share_dmg numeric(5,2) not null default 20 check (share_dmg between 0 and 100),
  default_percent numeric(5,2) default 50 check (default_percent is null or default_percent between 0 and 100),
  credit_bonus_percent numeric(5,2) not null default 25 check (credit_bonus_percent between 0 and 100),
  min_submission numeric(12,2) not null default 100 check (min_submission >= 0),
  default_limit_per_shopper integer not null default 4 check (default_limit_per_shopper between 1 and 999),
  reservation_days integer not null default 14 check (reservation_days between 1 and 90),
  updated_at timestamptz not null default now()
);
insert into public.buylist_settings default values;

create trigger buylist_settings_set_updated_at
  before update on public.buylist_settings
  for each row execute function public.set_updated_at();

create table public.buylist_entries (
  id uuid primary key default gen_random_uuid(),
  product_id text not null references public.card_printings (product_id) on update cascade on delete cascade,
  language text check (language ~ '^[a-z]{2}$'),
  finish text check (finish ~ '^[a-z][a-z0-9-]{0,39}$'),
  active boolean not null default true,
  wanted integer not null default 0 check (wanted between 0 and 100000),
  nm_price numeric(12,2) check (nm_price is null or nm_price > 0),
  limit_per_shopper integer check (limit_per_shopper is null or limit_per_shopper between 1 and 999),
  reserved integer not null default 0 check (reserved >= 0),
  bought integer not null default 0 check (bought >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index buylist_entries_once on public.buylist_entries (product_id, coalesce(language, ''), coalesce(finish, ''));

create trigger buylist_entries_set_updated_at
  before update on public.buylist_entries
  for each row execute function public.set_updated_at();

alter table public.buylist_settings enable row level security;
alter table public.buylist_entries enable row level security;

create policy "Buylist settings are public" on public.buylist_settings for select to anon, authenticated using (true);
create policy "Buylist settings: admins update" on public.buylist_settings for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

create policy "Buylist: everyone reads active entries, admins all" on public.buylist_entries for select to anon, authenticated
  using (active or (select public.is_admin()));
create policy "Buylist: admins insert" on public.buylist_entries for insert to authenticated
  with check ((select public.is_admin()));
create policy "Buylist: admins update" on public.buylist_entries for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "Buylist: admins delete" on public.buylist_entries for delete to authenticated
  using ((select public.is_admin()));

revoke all on public.buylist_settings, public.buylist_entries from anon, authenticated;
grant select on public.buylist_settings, public.buylist_entries to anon, authenticated;
grant update (share_lp, share_mp, share_hp, share_dmg, default_percent, credit_bonus_percent, min_submission,
              default_limit_per_shopper, reservation_days) on public.buylist_settings to authenticated;
-- reserved and bought are the functions' own: admins never write them.
grant insert (product_id, language, finish, active, wanted, nm_price, limit_per_shopper) on public.buylist_entries to authenticated;
grant update (active, wanted, nm_price, limit_per_shopper) on public.buylist_entries to authenticated;
grant delete on public.buylist_entries to authenticated;
grant select, insert, update, delete on public.buylist_settings, public.buylist_entries to service_role;

/** The share of the NM price a condition pays, in percent (NM 100). */
create function public.buylist_condition_share(p_condition public.card_condition) returns numeric
language sql
stable
set search_path = ''
as $$
  select case p_condition
           when 'NM' then 100::numeric
           when 'LP' then s.share_lp
           when 'MP' then s.share_mp
           when 'HP' then s.share_hp
           else s.share_dmg
         end
    from public.buylist_settings s
$$;

/**
 * What one copy is paid: the NM price times the condition's share, rounded to the centavo
 * ('transferencia'); in saldo a favor that amount plus the bonus, rounded again ('saldo').
 * Null when there is no NM price.
 */
create function public.buylist_unit_price(p_nm numeric, p_condition public.card_condition, p_payout text) returns numeric
language sql
stable
set search_path = ''
as $$
  select case when p_nm is null then null
              when p_payout = 'saldo' then round(round(p_nm * public.buylist_condition_share(p_condition) / 100, 2) * (100 + s.credit_bonus_percent) / 100, 2)
              else round(p_nm * public.buylist_condition_share(p_condition) / 100, 2)
         end
    from public.buylist_settings s
$$;

/**
 * The NM price an entry pays: its own, or the default rule's percent of the cheapest NM raw offer
 * of its printing (of its language and finish when the entry names them). Null: no price.
 */
create function public.buylist_entry_nm_price(p_entry public.buylist_entries) returns numeric
language sql
stable
set search_path = ''
as $$
  select coalesce(
    p_entry.nm_price,
    (select round(min(o.price) * s.default_percent / 100, 2)
       from public.card_offers o, public.buylist_settings s
      where o.product_id = p_entry.product_id
        and o.grading_company is null and o.condition = 'NM'
        and (p_entry.language is null or o.language = p_entry.language)
        and (p_entry.finish is null or o.finish = p_entry.finish)
        and o.price > 0
      group by s.default_percent)
  )
$$;

grant execute on function public.buylist_condition_share(public.card_condition) to anon, authenticated, service_role;
grant execute on function public.buylist_unit_price(numeric, public.card_condition, text) to anon, authenticated, service_role;
grant execute on function public.buylist_entry_nm_price(public.buylist_entries) to anon, authenticated, service_role;

/** The published buylist as the screens show it (row-level security of the caller applies). */
create view public.buylist_items with (security_invoker = true) as
select
  e.id as entry_id,
  e.product_id,
  p.name,
  cp.name_en,
  cp.name_es,
  p.franchise_id,
  cp.expansion,
  p.expansion_id,
  cp.collector_number,
  cp.collector_key,
  cp.rarity,
  p.image,
  e.language,
  e.finish,
  e.nm_price is null as default_rule,
  public.buylist_unit_price(x.nm, 'NM', 'transferencia') as cash_nm,
  public.buylist_unit_price(x.nm, 'LP', 'transferencia') as cash_lp,
  public.buylist_unit_price(x.nm, 'MP', 'transferencia') as cash_mp,
  public.buylist_unit_price(x.nm, 'HP', 'transferencia') as cash_hp,
  public.buylist_unit_price(x.nm, 'DMG', 'transferencia') as cash_dmg,
  public.buylist_unit_price(x.nm, 'NM', 'saldo') as credit_nm,
  public.buylist_unit_price(x.nm, 'LP', 'saldo') as credit_lp,
  public.buylist_unit_price(x.nm, 'MP', 'saldo') as credit_mp,
  public.buylist_unit_price(x.nm, 'HP', 'saldo') as credit_hp,
  public.buylist_unit_price(x.nm, 'DMG', 'saldo') as credit_dmg,
  greatest(e.wanted - e.reserved - e.bought, 0) as still_wanted,
  coalesce(e.limit_per_shopper, s.default_limit_per_shopper) as limit_per_shopper
from public.buylist_entries e
join public.card_printings cp on cp.product_id = e.product_id
join public.products p on p.id = e.product_id
cross join public.buylist_settings s
cross join lateral (select public.buylist_entry_nm_price(e) as nm) x
where e.active and x.nm is not null;

grant select on public.buylist_items to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Sell list

create table public.buylist_sell_list_items (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  product_id text not null references public.card_printings (product_id) on update cascade on delete cascade,
  condition public.card_condition not null,
  language text not null check (language ~ '^[a-z]{2}$'),
  finish text not null check (finish ~ '^[a-z][a-z0-9-]{0,39}$'),
  quantity integer not null check (quantity between 1 and 99),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint buylist_sell_list_once unique (user_id, product_id, condition, language, finish)
);

create trigger buylist_sell_list_items_set_updated_at
  before update on public.buylist_sell_list_items
  for each row execute function public.set_updated_at();

alter table public.buylist_sell_list_items enable row level security;
create policy "Sell list: own rows" on public.buylist_sell_list_items for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Sell list: add own" on public.buylist_sell_list_items for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "Sell list: edit own" on public.buylist_sell_list_items for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy "Sell list: remove own" on public.buylist_sell_list_items for delete to authenticated
  using (user_id = (select auth.uid()));
revoke all on public.buylist_sell_list_items from anon, authenticated;
grant select, delete on public.buylist_sell_list_items to authenticated;
grant insert (product_id, condition, language, finish, quantity) on public.buylist_sell_list_items to authenticated;
grant update (condition, language, finish, quantity) on public.buylist_sell_list_items to authenticated;
grant select, insert, update, delete on public.buylist_sell_list_items to service_role;

-- ---------------------------------------------------------------------------------------------
-- Submissions

create table public.buylist_submissions (
  id uuid primary key default gen_random_uuid(),
  number bigint generated always as identity unique,
  code text generated always as ('V-' || lpad(number::text, 6, '0')) stored,
  user_id uuid not null references auth.users (id) on delete cascade,
  request_id uuid not null,
  status text not null default 'por_recibir' check (status in (
    'por_recibir', 'recibida', 'en_revision', 'oferta_ajustada', 'aceptada', 'pagada',
    'por_devolver', 'devuelta', 'vencida', 'cancelada')),
  payout text not null check (payout in ('saldo', 'transferencia')),
  clabe text check (clabe is null or public.clabe_is_valid(clabe)),
  credit_bonus_percent numeric(5,2) not null,
  -- What the lines were worth as declared, in transfer and in saldo a favor.
  submitted_cash numeric(12,2) not null check (submitted_cash >= 0),
  submitted_credit numeric(12,2) not null check (submitted_credit >= 0),
  -- What the owner offers after the review, in both ways; null until the offer is sent.
  offer_cash numeric(12,2) check (offer_cash >= 0),
  offer_credit numeric(12,2) check (offer_credit >= 0),
  note text check (note is null or length(note) <= 500),
  expires_at timestamptz not null,
  received_at timestamptz,
  offer_sent_at timestamptz,
  decided_at timestamptz,
  paid_at timestamptz,
  returned_at timestamptz,
  -- The tracking number of the copies shipped back (the whole submission, or its rejected copies).
  return_tracking text check (return_tracking is null or length(btrim(return_tracking)) between 1 and 100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint buylist_submissions_request_once unique (user_id, request_id),
  constraint buylist_submissions_clabe_for_transfer check ((payout = 'transferencia') = (clabe is not null))
);
create index buylist_submissions_user_idx on public.buylist_submissions (user_id, created_at desc);
create index buylist_submissions_status_idx on public.buylist_submissions (status, created_at);
create index buylist_submissions_expiry_idx on public.buylist_submissions (expires_at) where status = 'por_recibir';

create trigger buylist_submissions_set_updated_at
  before update on public.buylist_submissions
  for each row execute function public.set_updated_at();

create table public.buylist_submission_lines (
  id uuid primary key default gen_random_uuid(),
  submission_id uuid not null references public.buylist_submissions (id) on delete cascade,
  position integer not null,
  entry_id uuid not null references public.buylist_entries (id) on delete restrict,
  product_id text not null references public.card_printings (product_id) on update cascade on delete restrict,
  -- A copy of the card's name and number when it was submitted.
  name text not null,
  collector_number text not null,
  condition public.card_condition not null,
  language text not null check (language ~ '^[a-z]{2}$'),
  finish text not null check (finish ~ '^[a-z][a-z0-9-]{0,39}$'),
  quantity integer not null check (quantity between 1 and 99),
  -- The NM price the line was priced from, and one copy's price as declared.
  nm_price numeric(12,2) not null check (nm_price > 0),
  unit_cash numeric(12,2) not null check (unit_cash >= 0),
  unit_credit numeric(12,2) not null check (unit_credit >= 0),
  -- The review: the condition found, the copies rejected and why, and the price that follows.
  reviewed_at timestamptz,
  final_condition public.card_condition,
  rejected_quantity integer not null default 0 check (rejected_quantity >= 0 and rejected_quantity <= quantity),
  reject_reason text check (reject_reason is null or length(btrim(reject_reason)) between 1 and 300),
  final_unit_cash numeric(12,2) check (final_unit_cash >= 0),
  final_unit_credit numeric(12,2) check (final_unit_credit >= 0),
  -- The offer the accepted copies went to.
  offer_id uuid references public.card_offers (id) on delete set null,
  constraint buylist_lines_position unique (submission_id, position),
  constraint buylist_lines_reason check (rejected_quantity = 0 or reject_reason is not null)
);
create index buylist_submission_lines_entry_idx on public.buylist_submission_lines (entry_id);

create table public.buylist_payouts (
  id uuid primary key default gen_random_uuid(),
  -- Never two payments for one submission.
  submission_id uuid not null unique references public.buylist_submissions (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  method text not null check (method in ('saldo', 'transferencia')),
  amount numeric(12,2) not null check (amount > 0),
  clabe text check (clabe is null or public.clabe_is_valid(clabe)),
  status text not null check (status in ('pendiente', 'pagado')),
  reference text check (reference is null or length(btrim(reference)) between 1 and 100),
  credit_entry_id bigint references public.store_credit_entries (id) on delete set null,
  paid_at timestamptz,
  paid_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint buylist_payouts_paid check ((status = 'pagado') = (paid_at is not null)),
  constraint buylist_payouts_transfer_reference check (method = 'saldo' or status = 'pendiente' or reference is not null)
);

create table public.buylist_events (
  id bigint generated always as identity primary key,
  submission_id uuid not null references public.buylist_submissions (id) on delete cascade,
  line_id uuid references public.buylist_submission_lines (id) on delete cascade,
  -- submitted, cancelled, expired, received, line_reviewed, offer_sent, accepted, paid,
  -- return_requested, returned, return_shipped.
  action text not null,
  from_status text,
  to_status text,
  actor uuid references auth.users (id) on delete set null,
  note text check (note is null or length(note) <= 500),
  created_at timestamptz not null default now()
);
create index buylist_events_submission_idx on public.buylist_events (submission_id, id);

alter table public.buylist_submissions enable row level security;
alter table public.buylist_submission_lines enable row level security;
alter table public.buylist_payouts enable row level security;
alter table public.buylist_events enable row level security;

create policy "Buylist submissions: own or admin" on public.buylist_submissions for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy "Buylist lines: own or admin" on public.buylist_submission_lines for select to authenticated
  using ((select public.is_admin()) or exists (
    select 1 from public.buylist_submissions s where s.id = submission_id and s.user_id = (select auth.uid())));
create policy "Buylist payouts: own or admin" on public.buylist_payouts for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy "Buylist events: own or admin" on public.buylist_events for select to authenticated
  using ((select public.is_admin()) or exists (
    select 1 from public.buylist_submissions s where s.id = submission_id and s.user_id = (select auth.uid())));

revoke all on public.buylist_submissions, public.buylist_submission_lines, public.buylist_payouts, public.buylist_events from anon, authenticated;
grant select on public.buylist_submissions, public.buylist_submission_lines, public.buylist_payouts, public.buylist_events to authenticated;
grant select, insert, update, delete on public.buylist_submissions, public.buylist_submission_lines, public.buylist_payouts, public.buylist_events to service_role;

-- 'Mis ventas' follows its submissions' status live (row-level security: a shopper's own rows).
do $$
begin
  if not exists (
    select 1 from pg_publication_tables
     where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = 'buylist_submissions'
  ) then
    alter publication supabase_realtime add table public.buylist_submissions;
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Helpers

/** Records one change of a submission (or one of its lines). */
create function public.buylist_event(
  p_submission uuid, p_action text, p_from text, p_to text, p_actor uuid, p_note text default null, p_line uuid default null
) returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.buylist_events (submission_id, line_id, action, from_status, to_status, actor, note)
  values (p_submission, p_line, p_action, p_from, p_to, p_actor, left(p_note, 500))
$$;

/** Pesos as the shop writes them: $1,234.50. */
create function public.buylist_money(p_amount numeric) returns text
language sql
immutable
set search_path = ''
as $$
  select '$' || to_char(coalesce(p_amount, 0), 'FM999,999,999,990.00')
$$;

/** Text made safe for HTML. */
create function public.buylist_html(p_text text) returns text
language sql
immutable
set search_path = ''
as $$
  select replace(replace(replace(replace(coalesce(p_text, ''), '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;')
$$;

/**
 * Queues the shopper's e-mail for a step of their submission in the outbox, once per submission
 * and step (dedupe key 'buylist:<step>:<submission id>'). Steps: submitted, received, offer,
 * paid, accepted, returned, expired, return_shipped.
 */
create function public.buylist_queue_mail(p_submission uuid, p_step text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub public.buylist_submissions%rowtype;
  v_email text;
  v_subject text;
  v_body text;
  v_lines text;
begin
  select * into v_sub from public.buylist_submissions s where s.id = p_submission;
  select u.email into v_email from auth.users u where u.id = v_sub.user_id;
  if v_email is null then
    return;
  end if;
  select string_agg(format('%s × %s (%s) %s · %s · %s', l.quantity - l.rejected_quantity, l.name, l.collector_number,
                           coalesce(l.final_condition, l.condition), l.language, l.finish)
                    || case when l.rejected_quantity > 0 then format(' — %s rechazada(s): %s', l.rejected_quantity, l.reject_reason) else '' end,
                    E'\n' order by l.position)
    into v_lines
    from public.buylist_submission_lines l where l.submission_id = p_submission;
  case p_step
    when 'submitted' then
      v_subject := format('Recibimos tu venta %s', v_sub.code);
      v_body := format(E'Registramos tu venta %s por %s.\nEnvía tus cartas o llévalas a la tienda antes del %s con la hoja de envío impresa o en tu teléfono; si no llegan a tiempo, la venta vence.',
                       v_sub.code,
                       public.buylist_money(case v_sub.payout when 'saldo' then v_sub.submitted_credit else v_sub.submitted_cash end),
                       to_char(v_sub.expires_at at time zone 'America/Mexico_City', 'DD/MM/YYYY'));
    when 'received' then
      v_subject := format('Llegaron tus cartas de la venta %s', v_sub.code);
      v_body := format(E'Tus cartas de la venta %s llegaron a la tienda. Las revisaremos y te avisaremos.', v_sub.code);
    when 'offer' then
      v_subject := format('Oferta ajustada de tu venta %s', v_sub.code);
      v_body := format(E'Revisamos tus cartas de la venta %s. Nuestra oferta es de %s.\n\n%s\n\nEntra a Mis ventas en tu cuenta para aceptarla o pedir que te devolvamos tus cartas.',
                       v_sub.code,
                       public.buylist_money(case v_sub.payout when 'saldo' then v_sub.offer_credit else v_sub.offer_cash end),
                       coalesce(v_lines, ''));
    when 'accepted' then
      v_subject := format('Aceptaste la oferta de tu venta %s', v_sub.code);
      v_body := format(E'Aceptaste la oferta de %s de tu venta %s. Te avisaremos cuando hagamos la transferencia.',
                       public.buylist_money(v_sub.offer_cash), v_sub.code);
    when 'paid' then
      v_subject := format('Pagamos tu venta %s', v_sub.code);
      v_body := case v_sub.payout
        when 'saldo' then format(E'Abonamos %s a tu saldo a favor por la venta %s.', public.buylist_money(v_sub.offer_credit), v_sub.code)
        else format(E'Transferimos %s a tu CLABE terminada en %s por la venta %s.', public.buylist_money(v_sub.offer_cash), right(v_sub.clabe, 4), v_sub.code)
      end;
    when 'returned', 'return_shipped' then
      v_subject := format('Te devolvimos tus cartas de la venta %s', v_sub.code);
      v_body := format(E'Enviamos tus cartas de la venta %s. Número de guía: %s.', v_sub.code, v_sub.return_tracking);
    when 'expired' then
      v_subject := format('Tu venta %s venció', v_sub.code);
      v_body := format(E'Tus cartas de la venta %s no llegaron a tiempo y la venta venció. Puedes crear una nueva cuando quieras.', v_sub.code);
    else
      return;
  end case;
  insert into public.mail_outbox (to_address, subject, html, text_body, kind, dedupe_key)
  values (v_email, v_subject,
          '<p>' || replace(public.buylist_html(v_body), E'\n', '<br>') || '</p>',
          v_body, 'buylist_' || p_step, 'buylist:' || p_step || ':' || p_submission)
  on conflict (dedupe_key) do nothing;
end
$$;

/** Gives a submission's reserved units back to their entries (open submissions only). */
create function public.buylist_release_reservation(p_submission uuid) returns void
language sql
security definer
set search_path = ''
as $$
  update public.buylist_entries e
     set reserved = greatest(e.reserved - r.units, 0)
    from (select l.entry_id, sum(l.quantity)::int as units
            from public.buylist_submission_lines l
           where l.submission_id = p_submission
           group by l.entry_id) r
   where e.id = r.entry_id
$$;

revoke execute on function public.buylist_event(uuid, text, text, text, uuid, text, uuid) from public, anon, authenticated;
revoke execute on function public.buylist_queue_mail(uuid, text) from public, anon, authenticated;
revoke execute on function public.buylist_release_reservation(uuid) from public, anon, authenticated;
grant execute on function public.buylist_money(numeric) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The shopper's side

/**
 * Submits the caller's cards to the shop. p_lines: [{ productId, condition, language, finish,
 * quantity }] (1 to 50 lines, 1 to 99 copies each; prices are the database's). p_payout: 'saldo'
 * or 'transferencia' (then p_clabe, 18 digits with its check digit). Idempotent on p_request_id:
 * the same request answers the first submission with created = false.
 * Reserves the copies under the entries' row locks. Returns {id, code, status, expiresAt,
 * totalCash, totalCredit, payout, created}.
 */
create function public.submit_buylist(
  p_request_id uuid,
  p_lines jsonb,
  p_payout text,
  p_clabe text default null,
  p_note text default null
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_settings public.buylist_settings%rowtype;
  v_existing public.buylist_submissions%rowtype;
  v_line jsonb;
  v_pos integer := 0;
  v_entry public.buylist_entries%rowtype;
  v_nm numeric;
  v_cash numeric := 0;
  v_credit numeric := 0;
  v_id uuid;
  v_row record;
  v_limit integer;
  v_mine integer;
  v_clabe text;
begin
  if v_user is null then
    raise exception 'Inicia sesión para vender tus cartas.' using errcode = 'P0001', detail = 'not_authenticated';
  end if;
  if p_request_id is null then
    raise exception 'Falta el identificador de la solicitud.' using errcode = 'P0001', detail = 'request_id_required';
  end if;
  -- The same request sent twice at once is judged once.
  perform pg_advisory_xact_lock(hashtextextended('buylist-submit:' || v_user || ':' || p_request_id, 0));
  select * into v_existing from public.buylist_submissions s where s.user_id = v_user and s.request_id = p_request_id;
  if found then
    return jsonb_build_object('id', v_existing.id, 'code', v_existing.code, 'status', v_existing.status,
      'expiresAt', v_existing.expires_at, 'totalCash', v_existing.submitted_cash, 'totalCredit', v_existing.submitted_credit,
      'payout', v_existing.payout, 'created', false);
  end if;
  if p_payout is null or p_payout not in ('saldo', 'transferencia') then
    raise exception 'Elige cómo quieres que te paguemos.' using errcode = 'P0001', detail = 'invalid_payout';
  end if;
  if p_payout = 'transferencia' then
    v_clabe := regexp_replace(coalesce(p_clabe, ''), '\s', '', 'g');
    if not public.clabe_is_valid(v_clabe) then
      raise exception 'La CLABE no es válida: son 18 dígitos y el último es de verificación.' using errcode = 'P0001', detail = 'invalid_clabe';
    end if;
  end if;
  if p_lines is null or jsonb_typeof(p_lines) <> 'array' or jsonb_array_length(p_lines) = 0 then
    raise exception 'Tu lista de venta está vacía.' using errcode = 'P0001', detail = 'empty_submission';
  end if;
  if jsonb_array_length(p_lines) > 50 then
    raise exception 'Una venta admite hasta 50 líneas.' using errcode = 'P0001', detail = 'too_many_lines';
  end if;
  if p_note is not null and length(p_note) > 500 then
    raise exception 'La nota admite hasta 500 caracteres.' using errcode = 'P0001', detail = 'note_too_long';
  end if;
  select * into v_settings from public.buylist_settings;

  create temporary table if not exists pg_temp.buylist_submit_lines (
    pos integer, product_id text, condition public.card_condition, language text, finish text, quantity integer, entry_id uuid
  ) on commit drop;
  delete from pg_temp.buylist_submit_lines;

  for v_line in select value from jsonb_array_elements(p_lines) loop
    v_pos := v_pos + 1;
    if jsonb_typeof(v_line) <> 'object'
       or jsonb_typeof(v_line -> 'productId') <> 'string'
       or coalesce(v_line ->> 'condition', '') not in ('NM', 'LP', 'MP', 'HP', 'DMG')
       or coalesce(v_line ->> 'language', '') !~ '^[a-z]{2}$'
       or coalesce(v_line ->> 'finish', '') !~ '^[a-z][a-z0-9-]{0,39}$'
       or jsonb_typeof(v_line -> 'quantity') <> 'number'
       or (v_line ->> 'quantity') !~ '^[0-9]{1,2}$'
       or (v_line ->> 'quantity')::int < 1 then
      raise exception 'Una línea de tu venta no es válida.' using errcode = 'P0001', detail = 'invalid_line:' || v_pos;
    end if;
    insert into pg_temp.buylist_submit_lines (pos, product_id, condition, language, finish, quantity)
    values (v_pos, v_line ->> 'productId', (v_line ->> 'condition')::public.card_condition, v_line ->> 'language',
            v_line ->> 'finish', (v_line ->> 'quantity')::int);
  end loop;

  -- Each line's entry: the most specific active entry of its printing that fits its language and finish.
  update pg_temp.buylist_submit_lines t
     set entry_id = (
       select e.id from public.buylist_entries e
        where e.product_id = t.product_id and e.active
          and (e.language is null or e.language = t.language)
          and (e.finish is null or e.finish = t.finish)
        order by (e.language is null), (e.finish is null)
        limit 1);
  for v_row in select t.product_id from pg_temp.buylist_submit_lines t where t.entry_id is null order by t.pos limit 1 loop
    raise exception 'La tienda no compra esta carta.' using errcode = 'P0001', detail = 'not_buying:' || v_row.product_id;
  end loop;

  -- Lock the entries in one order (no deadlock between two submissions), then judge each one.
  perform 1 from public.buylist_entries e
   where e.id in (select t.entry_id from pg_temp.buylist_submit_lines t)
   order by e.id
     for update;
  for v_row in
    select t.entry_id, t.product_id, sum(t.quantity)::int as units
      from pg_temp.buylist_submit_lines t
     group by t.entry_id, t.product_id
     order by t.entry_id
  loop
    select * into v_entry from public.buylist_entries e where e.id = v_row.entry_id;
    if not v_entry.active then
      raise exception 'La tienda no compra esta carta.' using errcode = 'P0001', detail = 'not_buying:' || v_row.product_id;
    end if;
    if public.buylist_entry_nm_price(v_entry) is null then
      raise exception 'La tienda no compra esta carta.' using errcode = 'P0001', detail = 'not_buying:' || v_row.product_id;
    end if;
    if v_row.units > v_entry.wanted - v_entry.reserved - v_entry.bought then
      raise exception 'La tienda ya no compra más de esta carta'
        using errcode = 'P0001', detail = 'not_wanted:' || v_row.product_id,
              hint = greatest(v_entry.wanted - v_entry.reserved - v_entry.bought, 0)::text;
    end if;
    v_limit := coalesce(v_entry.limit_per_shopper, v_settings.default_limit_per_shopper);
    select coalesce(sum(case when s.status in ('aceptada', 'pagada') then l.quantity - l.rejected_quantity else l.quantity end), 0)::int
      into v_mine
      from public.buylist_submission_lines l
      join public.buylist_submissions s on s.id = l.submission_id
     where s.user_id = v_user and l.entry_id = v_row.entry_id
       and s.status not in ('vencida', 'cancelada', 'devuelta', 'por_devolver');
    if v_mine + v_row.units > v_limit then
      raise exception 'Solo compramos % de esta carta por persona.', v_limit
        using errcode = 'P0001', detail = 'limit_exceeded:' || v_row.product_id, hint = greatest(v_limit - v_mine, 0)::text;
    end if;
  end loop;

  select sum(public.buylist_unit_price(public.buylist_entry_nm_price(e), t.condition, 'transferencia') * t.quantity),
         sum(public.buylist_unit_price(public.buylist_entry_nm_price(e), t.condition, 'saldo') * t.quantity)
    into v_cash, v_credit
    from pg_temp.buylist_submit_lines t join public.buylist_entries e on e.id = t.entry_id;
  if v_cash < v_settings.min_submission then
    raise exception 'El mínimo para vender es %.', public.buylist_money(v_settings.min_submission)
      using errcode = 'P0001', detail = 'below_minimum', hint = v_settings.min_submission::text;
  end if;

  insert into public.buylist_submissions (user_id, request_id, payout, clabe, credit_bonus_percent, submitted_cash,
                                          submitted_credit, note, expires_at)
  values (v_user, p_request_id, p_payout, case when p_payout = 'transferencia' then v_clabe end,
          v_settings.credit_bonus_percent, v_cash, v_credit, nullif(btrim(p_note), ''),
          now() + make_interval(days => v_settings.reservation_days))
  returning * into v_existing;
  v_id := v_existing.id;

  insert into public.buylist_submission_lines (submission_id, position, entry_id, product_id, name, collector_number,
                                               condition, language, finish, quantity, nm_price, unit_cash, unit_credit)
  select v_id, t.pos, t.entry_id, t.product_id, coalesce(cp.name_es, cp.name_en, p.name), cp.collector_number,
         t.condition, t.language, t.finish, t.quantity, x.nm,
         public.buylist_unit_price(x.nm, t.condition, 'transferencia'),
         public.buylist_unit_price(x.nm, t.condition, 'saldo')
    from pg_temp.buylist_submit_lines t
    join public.buylist_entries e on e.id = t.entry_id
    join public.card_printings cp on cp.product_id = t.product_id
    join public.products p on p.id = t.product_id
    cross join lateral (select public.buylist_entry_nm_price(e) as nm) x;

  update public.buylist_entries e
     set reserved = e.reserved + r.units
    from (select t.entry_id, sum(t.quantity)::int as units from pg_temp.buylist_submit_lines t group by t.entry_id) r
   where e.id = r.entry_id;

  -- What was sold comes off the sell list.
  delete from public.buylist_sell_list_items i
   using pg_temp.buylist_submit_lines t
   where i.user_id = v_user and i.product_id = t.product_id and i.condition = t.condition
     and i.language = t.language and i.finish = t.finish;

  perform public.buylist_event(v_id, 'submitted', null, 'por_recibir', v_user);
  perform public.buylist_queue_mail(v_id, 'submitted');
  return jsonb_build_object('id', v_id, 'code', v_existing.code, 'status', v_existing.status,
    'expiresAt', v_existing.expires_at, 'totalCash', v_cash, 'totalCredit', v_credit, 'payout', p_payout, 'created', true);
end
$$;

/** The shopper withdraws a submission the shop has not received yet; its reservation is released. */
create function public.cancel_buylist_submission(p_submission uuid) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub public.buylist_submissions%rowtype;
begin
  select * into v_sub from public.buylist_submissions s
   where s.id = p_submission and s.user_id = auth.uid() for update;
  if not found then
    raise exception 'Venta no encontrada.' using errcode = 'P0001', detail = 'submission_not_found';
  end if;
  if v_sub.status = 'cancelada' then
    return jsonb_build_object('id', v_sub.id, 'status', v_sub.status);
  end if;
  if v_sub.status <> 'por_recibir' then
    raise exception 'Esta venta ya no se puede cancelar.' using errcode = 'P0001', detail = 'invalid_status:' || v_sub.status;
  end if;
  perform public.buylist_release_reservation(v_sub.id);
  update public.buylist_submissions s set status = 'cancelada', decided_at = now() where s.id = v_sub.id;
  perform public.buylist_event(v_sub.id, 'cancelled', v_sub.status, 'cancelada', auth.uid());
  return jsonb_build_object('id', v_sub.id, 'status', 'cancelada');
end
$$;

/**
 * Pays an accepted submission once and puts its accepted copies in stock (called under the
 * submission's row lock). Saldo: one credit to the ledger for the offer in saldo a favor
 * (reference 'buylist:<submission id>', unique), status 'pagada'. Transfer: a pending payout of
 * the offer in cash, status 'aceptada' until the owner marks it paid.
 */
create function public.buylist_settle(p_submission uuid, p_actor uuid) returns void
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
revoke execute on function public.buylist_settle(uuid, uuid) from public, anon, authenticated;

/**
 * Accepts a submission's offer (status 'aceptada' at once with the date), pays it (buylist_settle)
 * and puts the copies in stock. Used by the shopper's acceptance and by an offer that equals what
 * the shopper declared. An offer of $0.00 (every copy rejected) goes back whole ('por_devolver').
 */
create function public.buylist_accept(p_submission uuid, p_actor uuid) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub public.buylist_submissions%rowtype;
begin
  select * into v_sub from public.buylist_submissions s where s.id = p_submission for update;
  if coalesce(v_sub.offer_cash, 0) = 0 then
    update public.buylist_submissions s set status = 'por_devolver', decided_at = now() where s.id = p_submission;
    perform public.buylist_release_reservation(p_submission);
    perform public.buylist_event(p_submission, 'return_requested', v_sub.status, 'por_devolver', p_actor, 'Ninguna carta aceptada');
    return 'por_devolver';
  end if;
  update public.buylist_submissions s set status = 'aceptada', decided_at = now() where s.id = p_submission;
  perform public.buylist_event(p_submission, 'accepted', v_sub.status, 'aceptada', p_actor);
  perform public.buylist_settle(p_submission, p_actor);
  return (select s.status from public.buylist_submissions s where s.id = p_submission);
end
$$;
revoke execute on function public.buylist_accept(uuid, uuid) from public, anon, authenticated;

/**
 * The shopper accepts the adjusted offer: the submission is paid once (saldo: credited at once,
 * 'pagada'; transfer: 'aceptada' until the owner pays) and its accepted copies enter inventory.
 * A repeated call (double click) answers the current status with changed = false.
 */
create function public.accept_buylist_offer(p_submission uuid) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub public.buylist_submissions%rowtype;
  v_status text;
begin
  select * into v_sub from public.buylist_submissions s
   where s.id = p_submission and s.user_id = auth.uid() for update;
  if not found then
    raise exception 'Venta no encontrada.' using errcode = 'P0001', detail = 'submission_not_found';
  end if;
  if v_sub.status in ('aceptada', 'pagada') then
    return jsonb_build_object('id', v_sub.id, 'status', v_sub.status, 'changed', false);
  end if;
  if v_sub.status <> 'oferta_ajustada' then
    raise exception 'Esta venta no tiene una oferta por aceptar.' using errcode = 'P0001', detail = 'invalid_status:' || v_sub.status;
  end if;
  v_status := public.buylist_accept(v_sub.id, auth.uid());
  return jsonb_build_object('id', v_sub.id, 'status', v_status, 'changed', true);
end
$$;

/** The shopper declines the adjusted offer and asks for all their cards back ('por_devolver'). */
create function public.return_buylist_submission(p_submission uuid) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub public.buylist_submissions%rowtype;
begin
  select * into v_sub from public.buylist_submissions s
   where s.id = p_submission and s.user_id = auth.uid() for update;
  if not found then
    raise exception 'Venta no encontrada.' using errcode = 'P0001', detail = 'submission_not_found';
  end if;
  if v_sub.status in ('por_devolver', 'devuelta') then
    return jsonb_build_object('id', v_sub.id, 'status', v_sub.status, 'changed', false);
  end if;
  if v_sub.status <> 'oferta_ajustada' then
    raise exception 'Esta venta ya no se puede devolver.' using errcode = 'P0001', detail = 'invalid_status:' || v_sub.status;
  end if;
  perform public.buylist_release_reservation(v_sub.id);
  update public.buylist_submissions s set status = 'por_devolver', decided_at = now() where s.id = v_sub.id;
  perform public.buylist_event(v_sub.id, 'return_requested', v_sub.status, 'por_devolver', auth.uid());
  return jsonb_build_object('id', v_sub.id, 'status', 'por_devolver', 'changed', true);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- The owner's side (admins only)

create function public.buylist_require_admin() returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede hacer esto.' using errcode = '42501', detail = 'not_admin';
  end if;
end
$$;
revoke execute on function public.buylist_require_admin() from public, anon;

/** Locks a submission for an admin's step; refuses an unknown one. */
create function public.buylist_lock_submission(p_submission uuid) returns public.buylist_submissions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub public.buylist_submissions%rowtype;
begin
  perform public.buylist_require_admin();
  select * into v_sub from public.buylist_submissions s where s.id = p_submission for update;
  if not found then
    raise exception 'Venta no encontrada.' using errcode = 'P0001', detail = 'submission_not_found';
  end if;
  return v_sub;
end
$$;
revoke execute on function public.buylist_lock_submission(uuid) from public, anon, authenticated;

/** The cards arrived: 'por_recibir' (or a 'vencida' one that arrived late, reserving again) → 'recibida'. */
create function public.admin_buylist_receive(p_submission uuid, p_note text default null) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub public.buylist_submissions%rowtype;
begin
  v_sub := public.buylist_lock_submission(p_submission);
  if v_sub.status = 'recibida' then
    return jsonb_build_object('id', v_sub.id, 'status', v_sub.status, 'changed', false);
  end if;
  if v_sub.status = 'vencida' then
    -- Late cards: the shop receives them again and they count against what it still wants.
    update public.buylist_entries e set reserved = e.reserved + r.units
      from (select l.entry_id, sum(l.quantity)::int as units from public.buylist_submission_lines l
             where l.submission_id = v_sub.id group by l.entry_id) r
     where e.id = r.entry_id;
  elsif v_sub.status <> 'por_recibir' then
    raise exception 'Esta venta no está por recibir.' using errcode = 'P0001', detail = 'invalid_status:' || v_sub.status;
  end if;
  update public.buylist_submissions s set status = 'recibida', received_at = now() where s.id = v_sub.id;
  perform public.buylist_event(v_sub.id, 'received', v_sub.status, 'recibida', auth.uid(), p_note);
  perform public.buylist_queue_mail(v_sub.id, 'received');
  return jsonb_build_object('id', v_sub.id, 'status', 'recibida', 'changed', true);
end
$$;

/**
 * Reviews one line: the condition found (its price follows that condition's share of the line's
 * NM price) and how many copies are rejected, with the reason (required when any is rejected).
 * The submission becomes 'en_revision'. Can be repeated until the offer is sent.
 * Returns {lineId, condition, accepted, rejected, unitCash, unitCredit}.
 */
create function public.admin_buylist_review_line(
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

/**
 * Sends the offer after the review: the totals of the accepted copies at their reviewed prices
 * (lines not reviewed count as declared). When nothing changed (every copy accepted in the
 * condition declared), the shopper already agreed to those prices: the submission is accepted
 * and paid at once. Otherwise 'oferta_ajustada' and the shopper is e-mailed the offer.
 * Returns {id, status, offerCash, offerCredit}.
 */
create function public.admin_buylist_send_offer(p_submission uuid, p_note text default null) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub public.buylist_submissions%rowtype;
  v_cash numeric;
  v_credit numeric;
  v_changed boolean;
  v_status text;
begin
  v_sub := public.buylist_lock_submission(p_submission);
  if v_sub.status not in ('recibida', 'en_revision') then
    raise exception 'Esta venta no está en revisión.' using errcode = 'P0001', detail = 'invalid_status:' || v_sub.status;
  end if;
  select coalesce(sum((l.quantity - l.rejected_quantity) * coalesce(l.final_unit_cash, l.unit_cash)), 0),
         coalesce(sum((l.quantity - l.rejected_quantity) * coalesce(l.final_unit_credit, l.unit_credit)), 0),
         coalesce(bool_or(l.rejected_quantity > 0 or coalesce(l.final_condition, l.condition) <> l.condition), false)
    into v_cash, v_credit, v_changed
    from public.buylist_submission_lines l where l.submission_id = v_sub.id;
  update public.buylist_submissions s
     set status = 'oferta_ajustada', offer_cash = v_cash, offer_credit = v_credit, offer_sent_at = now()
   where s.id = v_sub.id;
  perform public.buylist_event(v_sub.id, 'offer_sent', v_sub.status, 'oferta_ajustada', auth.uid(),
    coalesce(nullif(btrim(p_note), ''), format('%s en transferencia, %s en saldo a favor', public.buylist_money(v_cash), public.buylist_money(v_credit))));
  if v_changed then
    perform public.buylist_queue_mail(v_sub.id, 'offer');
    v_status := 'oferta_ajustada';
  else
    v_status := public.buylist_accept(v_sub.id, auth.uid());
  end if;
  return jsonb_build_object('id', v_sub.id, 'status', v_status, 'offerCash', v_cash, 'offerCredit', v_credit);
end
$$;

/**
 * The owner paid a transfer: the payout is marked paid with its bank reference and the
 * submission becomes 'pagada'. Repeating it answers the payout already paid (changed = false).
 */
create function public.admin_buylist_mark_paid(p_submission uuid, p_reference text) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub public.buylist_submissions%rowtype;
  v_payout public.buylist_payouts%rowtype;
  v_ref text := nullif(btrim(coalesce(p_reference, '')), '');
begin
  v_sub := public.buylist_lock_submission(p_submission);
  select * into v_payout from public.buylist_payouts p where p.submission_id = v_sub.id for update;
  if not found then
    raise exception 'Esta venta no tiene un pago pendiente.' using errcode = 'P0001', detail = 'no_payout';
  end if;
  if v_payout.status = 'pagado' then
    return jsonb_build_object('id', v_sub.id, 'status', v_sub.status, 'reference', v_payout.reference, 'changed', false);
  end if;
  if v_ref is null or length(v_ref) > 100 then
    raise exception 'Escribe la referencia de la transferencia.' using errcode = 'P0001', detail = 'reference_required';
  end if;
  update public.buylist_payouts p set status = 'pagado', reference = v_ref, paid_at = now(), paid_by = auth.uid()
   where p.id = v_payout.id;
  update public.buylist_submissions s set status = 'pagada', paid_at = now() where s.id = v_sub.id;
  perform public.buylist_event(v_sub.id, 'paid', v_sub.status, 'pagada', auth.uid(), 'Transferencia ' || v_ref);
  perform public.buylist_queue_mail(v_sub.id, 'paid');
  return jsonb_build_object('id', v_sub.id, 'status', 'pagada', 'reference', v_ref, 'changed', true);
end
$$;

/**
 * The owner shipped cards back with a tracking number: a submission the shopper asked back
 * ('por_devolver' → 'devuelta'), or the rejected copies of an accepted or paid one (its status
 * stays; the tracking number is recorded).
 */
create function public.admin_buylist_mark_returned(p_submission uuid, p_tracking text) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub public.buylist_submissions%rowtype;
  v_tracking text := nullif(btrim(coalesce(p_tracking, '')), '');
begin
  v_sub := public.buylist_lock_submission(p_submission);
  if v_tracking is null or length(v_tracking) > 100 then
    raise exception 'Escribe el número de guía.' using errcode = 'P0001', detail = 'tracking_required';
  end if;
  if v_sub.status = 'por_devolver' then
    update public.buylist_submissions s set status = 'devuelta', returned_at = now(), return_tracking = v_tracking where s.id = v_sub.id;
    perform public.buylist_event(v_sub.id, 'returned', v_sub.status, 'devuelta', auth.uid(), 'Guía ' || v_tracking);
    perform public.buylist_queue_mail(v_sub.id, 'returned');
    return jsonb_build_object('id', v_sub.id, 'status', 'devuelta', 'tracking', v_tracking);
  end if;
  if v_sub.status in ('aceptada', 'pagada')
     and exists (select 1 from public.buylist_submission_lines l where l.submission_id = v_sub.id and l.rejected_quantity > 0) then
    update public.buylist_submissions s set returned_at = now(), return_tracking = v_tracking where s.id = v_sub.id;
    perform public.buylist_event(v_sub.id, 'return_shipped', v_sub.status, v_sub.status, auth.uid(), 'Guía ' || v_tracking);
    perform public.buylist_queue_mail(v_sub.id, 'return_shipped');
    return jsonb_build_object('id', v_sub.id, 'status', v_sub.status, 'tracking', v_tracking);
  end if;
  raise exception 'Esta venta no tiene cartas por devolver.' using errcode = 'P0001', detail = 'invalid_status:' || v_sub.status;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- The sweeper

/**
 * Submissions not received by their expires_at become 'vencida' and give their reserved units
 * back (the shopper is e-mailed). Run by the server's sweeper; returns how many expired.
 */
create function public.release_expired_buylist_submissions(p_limit integer default 200) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub record;
  v_count integer := 0;
begin
  for v_sub in
    select s.id, s.status from public.buylist_submissions s
     where s.status = 'por_recibir' and s.expires_at <= now()
     order by s.expires_at
     limit least(greatest(coalesce(p_limit, 200), 1), 1000)
       for update skip locked
  loop
    perform public.buylist_release_reservation(v_sub.id);
    update public.buylist_submissions s set status = 'vencida', decided_at = now() where s.id = v_sub.id;
    perform public.buylist_event(v_sub.id, 'expired', 'por_recibir', 'vencida', null);
    perform public.buylist_queue_mail(v_sub.id, 'expired');
    v_count := v_count + 1;
  end loop;
  return v_count;
end
$$;

revoke execute on function public.submit_buylist(uuid, jsonb, text, text, text) from public, anon;
revoke execute on function public.cancel_buylist_submission(uuid) from public, anon;
revoke execute on function public.accept_buylist_offer(uuid) from public, anon;
revoke execute on function public.return_buylist_submission(uuid) from public, anon;
revoke execute on function public.admin_buylist_receive(uuid, text) from public, anon;
revoke execute on function public.admin_buylist_review_line(uuid, public.card_condition, integer, text) from public, anon;
revoke execute on function public.admin_buylist_send_offer(uuid, text) from public, anon;
revoke execute on function public.admin_buylist_mark_paid(uuid, text) from public, anon;
revoke execute on function public.admin_buylist_mark_returned(uuid, text) from public, anon;
revoke execute on function public.release_expired_buylist_submissions(integer) from public, anon, authenticated;
grant execute on function public.submit_buylist(uuid, jsonb, text, text, text) to authenticated;
grant execute on function public.cancel_buylist_submission(uuid) to authenticated;
grant execute on function public.accept_buylist_offer(uuid) to authenticated;
grant execute on function public.return_buylist_submission(uuid) to authenticated;
grant execute on function public.admin_buylist_receive(uuid, text) to authenticated;
grant execute on function public.admin_buylist_review_line(uuid, public.card_condition, integer, text) to authenticated;
grant execute on function public.admin_buylist_send_offer(uuid, text) to authenticated;
grant execute on function public.admin_buylist_mark_paid(uuid, text) to authenticated;
grant execute on function public.admin_buylist_mark_returned(uuid, text) to authenticated;
grant execute on function public.release_expired_buylist_submissions(integer) to service_role;
