-- Reward points the shopper can spend: 'Canjear puntos' turns whole blocks of points into saldo a
-- favor at the rate the shop sets.
--
--   points_rate               one row: points_per_block points are worth pesos_per_block pesos
--                             (100 = $10.00 to start), and min_points, the fewest points one
--                             redemption takes (one block to start). Everyone reads it (the account
--                             shows it); only admins change it (row-level security), and every
--                             change is stamped with who and when.
--   points_rate_changes       the rate's history, append-only: the values before and after, who,
--                             when (written by a trigger; admins read it).
--   points_redemptions        the points ledger's debits: every redemption with the shopper, the
--                             request id that made it, the points taken, the centavos credited, the
--                             rate it used, the balance of points after, and its store credit entry.
--   store_credit_entries      reason 'points': the credit of a redemption (provider 'points', the
--                             redemption's request as reference, so it is credited once).
--
-- The balance of points is rewards.points, a running balance that never goes below zero (its check):
-- a paid order adds its points_awarded, a refund takes them back, and a redemption takes the points
-- it converts, all under the rewards row's lock. A refund that takes back points the shopper has
-- already redeemed stops at zero (finish_order_refund's greatest(points - awarded, 0)): the saldo a
-- favor they became stays with the shopper, and the shop bears the difference.

create table public.points_rate (
  id boolean primary key default true check (id),
  points_per_block integer not null default 100 check (points_per_block between 1 and 1000000),
  pesos_per_block numeric(12, 2) not null default 10 check (pesos_per_block > 0 and pesos_per_block <= 100000),
  min_points integer not null default 100 check (min_points > 0),
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null
);
insert into public.points_rate (id) values (true);

create table public.points_rate_changes (
  id bigint generated always as identity primary key,
  old_points_per_block integer not null,
  old_pesos_per_block numeric(12, 2) not null,
  old_min_points integer not null,
  points_per_block integer not null,
  pesos_per_block numeric(12, 2) not null,
  min_points integer not null,
  -- The signed-in admin who changed it; null for the shop itself.
  changed_by uuid references auth.users (id) on delete set null,
  changed_at timestamptz not null default now()
);
create index points_rate_changes_at_idx on public.points_rate_changes (changed_at desc, id desc);

create table public.points_redemptions (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  request_id uuid not null,
  points integer not null check (points > 0),
  -- Centavos credited to the saldo a favor.
  credit bigint not null check (credit > 0),
  points_per_block integer not null,
  pesos_per_block numeric(12, 2) not null,
  points_after integer not null check (points_after >= 0),
  store_credit_entry_id bigint references public.store_credit_entries (id) on delete set null,
  created_at timestamptz not null default now(),
  unique (user_id, request_id)
);
create index points_redemptions_user_idx on public.points_redemptions (user_id, created_at desc, id desc);

-- A redemption's credit is a ledger reason of its own. The check is rebuilt from its current
-- definition, so the reasons other features added stay.
do $$
declare
  v_def text;
begin
  select pg_get_constraintdef(c.oid) into v_def
    from pg_constraint c
   where c.conrelid = 'public.store_credit_entries'::regclass and c.conname = 'store_credit_entries_reason_check';
  if v_def is null or position('''points''' in v_def) > 0 then
    return;
  end if;
  if position('ARRAY[' in v_def) = 0 then
    raise exception 'store_credit_entries_reason_check has an unexpected form: %', v_def;
  end if;
  alter table public.store_credit_entries drop constraint store_credit_entries_reason_check;
  execute 'alter table public.store_credit_entries add constraint store_credit_entries_reason_check '
    || replace(v_def, 'ARRAY[', 'ARRAY[''points''::text, ');
end
$$;

/**
 * Checks a new rate with Spanish messages (detail codes), and stamps who changed it and when.
 * The minimum is a whole number of blocks, at least one.
 */
create or replace function public.points_rate_before_update() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.id := true;
  if new.points_per_block is null or new.points_per_block < 1 or new.points_per_block > 1000000 then
    raise exception 'Los puntos por bloque deben ser un número entero entre 1 y 1,000,000.'
      using errcode = 'P0001', detail = 'invalid_points_per_block';
  end if;
  if new.pesos_per_block is null or new.pesos_per_block <= 0 or new.pesos_per_block > 100000 then
    raise exception 'El valor de cada bloque debe ser mayor que $0.00 y de hasta $100,000.00.'
      using errcode = 'P0001', detail = 'invalid_pesos_per_block';
  end if;
  if new.min_points is null or new.min_points < new.points_per_block or new.min_points % new.points_per_block <> 0 then
    raise exception 'El mínimo para canjear debe ser de al menos un bloque y en bloques completos (múltiplo de %).', new.points_per_block
      using errcode = 'P0001', detail = 'invalid_min_points';
  end if;
  new.updated_at := now();
  new.updated_by := (select auth.uid());
  return new;
end
$$;
create trigger points_rate_before_update
  before update on public.points_rate
  for each row execute function public.points_rate_before_update();
revoke execute on function public.points_rate_before_update() from public, anon, authenticated;

/** Records every change of the rate in points_rate_changes. */
create or replace function public.points_rate_record_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (old.points_per_block, old.pesos_per_block, old.min_points) is distinct from (new.points_per_block, new.pesos_per_block, new.min_points) then
    insert into public.points_rate_changes
      (old_points_per_block, old_pesos_per_block, old_min_points, points_per_block, pesos_per_block, min_points, changed_by)
    values (old.points_per_block, old.pesos_per_block, old.min_points, new.points_per_block, new.pesos_per_block, new.min_points, new.updated_by);
  end if;
  return null;
end
$$;
create trigger points_rate_record_change
  after update on public.points_rate
  for each row execute function public.points_rate_record_change();
revoke execute on function public.points_rate_record_change() from public, anon, authenticated;

alter table public.points_rate enable row level security;
alter table public.points_rate_changes enable row level security;
alter table public.points_redemptions enable row level security;

create policy "Points rate: read by everyone" on public.points_rate
  for select to anon, authenticated using (true);
create policy "Points rate: admins change it" on public.points_rate
  for update to authenticated using (public.is_admin()) with check (public.is_admin());
create policy "Points rate changes: admins read" on public.points_rate_changes
  for select to authenticated using (public.is_admin());
create policy "Points redemptions: read own or admin" on public.points_redemptions
  for select to authenticated using (user_id = (select auth.uid()) or public.is_admin());

revoke all on public.points_rate, public.points_rate_changes, public.points_redemptions from anon, authenticated, service_role;
grant select on public.points_rate to anon, authenticated, service_role;
grant update (points_per_block, pesos_per_block, min_points) on public.points_rate to authenticated, service_role;
grant select on public.points_rate_changes, public.points_redemptions to authenticated, service_role;

/**
 * Converts the signed-in shopper's points into saldo a favor: whole blocks only, at least the
 * minimum, at most the balance (details 'not_whole_blocks', 'below_minimum', 'insufficient_points').
 * The points are taken and the credit posted in one transaction under the rewards row's lock; a
 * request id already used answers that redemption again (created = false) and converts nothing.
 * Returns {id, created, points, credit, points_balance, credit_balance} (credit in centavos).
 */
create or replace function public.redeem_points(points integer, request_id uuid) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_rate public.points_rate%rowtype;
  v_balance integer;
  v_done public.points_redemptions%rowtype;
  v_block_centavos bigint;
  v_credit bigint;
  v_post jsonb;
  v_id bigint;
begin
  if v_user is null then
    raise exception 'Inicia sesión para canjear tus puntos.' using errcode = 'P0001', detail = 'not_signed_in';
  end if;
  if redeem_points.request_id is null then
    raise exception 'Falta el identificador de la solicitud.' using errcode = 'P0001', detail = 'request_id_required';
  end if;
  insert into public.rewards (user_id, points) values (v_user, 0) on conflict (user_id) do nothing;
  select w.points into v_balance from public.rewards w where w.user_id = v_user for update;

  -- The same request again (a double click, a retry): the first answer, nothing converted twice.
  select * into v_done from public.points_redemptions r where r.user_id = v_user and r.request_id = redeem_points.request_id;
  if found then
    return jsonb_build_object(
      'id', v_done.id, 'created', false, 'points', v_done.points, 'credit', v_done.credit,
      'points_balance', v_balance, 'credit_balance', public.my_store_credit());
  end if;

  select * into v_rate from public.points_rate where id;
  if redeem_points.points is null or redeem_points.points <= 0 or redeem_points.points % v_rate.points_per_block <> 0 then
    raise exception 'Canjea tus puntos en bloques de %.', v_rate.points_per_block
      using errcode = 'P0001', detail = 'not_whole_blocks';
  end if;
  if redeem_points.points < v_rate.min_points then
    raise exception 'El mínimo para canjear es de % puntos.', v_rate.min_points
      using errcode = 'P0001', detail = 'below_minimum';
  end if;
  if redeem_points.points > v_balance then
    raise exception 'No tienes suficientes puntos.' using errcode = 'P0001', detail = 'insufficient_points';
  end if;

  v_block_centavos := round(v_rate.pesos_per_block * 100)::bigint;
  v_credit := (redeem_points.points / v_rate.points_per_block)::bigint * v_block_centavos;
  update public.rewards w set points = w.points - redeem_points.points where w.user_id = v_user;
  v_post := public.store_credit_post(
    v_user, v_credit, 'points', null, 'points', v_user::text || ':' || redeem_points.request_id::text, v_user,
    'Canje de ' || redeem_points.points || ' puntos');
  insert into public.points_redemptions
    (user_id, request_id, points, credit, points_per_block, pesos_per_block, points_after, store_credit_entry_id)
  values (v_user, redeem_points.request_id, redeem_points.points, v_credit, v_rate.points_per_block, v_rate.pesos_per_block,
          v_balance - redeem_points.points, (v_post ->> 'id')::bigint)
  returning id into v_id;
  return jsonb_build_object(
    'id', v_id, 'created', true, 'points', redeem_points.points, 'credit', v_credit,
    'points_balance', v_balance - redeem_points.points, 'credit_balance', (v_post ->> 'balance')::bigint);
end
$$;
revoke execute on function public.redeem_points(integer, uuid) from public, anon, service_role;
grant execute on function public.redeem_points(integer, uuid) to authenticated;
