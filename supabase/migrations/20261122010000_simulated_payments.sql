-- The simulated payment provider's records: customers, saved cards, payment intents and PayPal
-- orders, used when no Stripe/PayPal keys are configured (the embedded default and the tests).
--
-- They live in a schema of their own that only the service role can reach, through the
-- security-definer functions below (the REST API exposes only `public`). anon and authenticated
-- can neither read the tables nor call the functions. On a hosted project with real keys the
-- schema simply stays empty: it is harmless there and nothing reads it.
--
-- Every record is one row: a kind ('customer', 'payment_method', 'payment_intent',
-- 'paypal_order'), a prefixed id, an owner (the customer of a card, the order of an intent),
-- a status and the provider-shaped object as jsonb. An idempotency key, when given, makes a
-- second create return the first record instead of a new one.

create schema if not exists simulated_payments;
revoke all on schema simulated_payments from public, anon, authenticated;
grant usage on schema simulated_payments to service_role;

create table simulated_payments.objects (
  id text primary key check (length(id) between 1 and 200),
  kind text not null check (kind in ('customer', 'payment_method', 'payment_intent', 'paypal_order')),
  owner text,
  status text,
  idempotency_key text unique,
  data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index simulated_payments_objects_owner_idx on simulated_payments.objects (kind, owner, created_at);

revoke all on simulated_payments.objects from public, anon, authenticated;
grant select, insert, update, delete on simulated_payments.objects to service_role;

/** The row as the server reads it. */
create or replace function simulated_payments.to_json(o simulated_payments.objects) returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', o.id, 'kind', o.kind, 'owner', o.owner, 'status', o.status,
    'data', o.data, 'created_at', o.created_at, 'updated_at', o.updated_at
  )
$$;

/** Creates a record; with an idempotency key already used, returns that earlier record instead. */
create or replace function public.simulated_payments_put(
  p_id text, p_kind text, p_owner text, p_status text, p_data jsonb, p_idempotency_key text default null
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row simulated_payments.objects%rowtype;
begin
  if p_idempotency_key is not null then
    select * into v_row from simulated_payments.objects o where o.idempotency_key = p_idempotency_key;
    if found then
      return simulated_payments.to_json(v_row);
    end if;
  end if;
  insert into simulated_payments.objects (id, kind, owner, status, data, idempotency_key)
  values (p_id, p_kind, p_owner, p_status, coalesce(p_data, '{}'::jsonb), p_idempotency_key)
  on conflict (idempotency_key) do nothing
  returning * into v_row;
  if not found then
    -- A concurrent create with the same key won the race: answer with its record.
    select * into v_row from simulated_payments.objects o where o.idempotency_key = p_idempotency_key;
  end if;
  return simulated_payments.to_json(v_row);
end
$$;

/** One record by id, or null. */
create or replace function public.simulated_payments_get(p_id text) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select simulated_payments.to_json(o) from simulated_payments.objects o where o.id = p_id
$$;

/** Records of a kind belonging to an owner, oldest first. */
create or replace function public.simulated_payments_list(p_kind text, p_owner text) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(simulated_payments.to_json(o) order by o.created_at, o.id), '[]'::jsonb)
    from simulated_payments.objects o
   where o.kind = p_kind and o.owner = p_owner
$$;

/**
 * Changes a record's status and merges keys into its data, but only while its status is one of
 * p_from (null: any). Returns the changed record, or null when the status did not match: two
 * clicks on "Pagar" can never both move the same intent.
 */
create or replace function public.simulated_payments_update(
  p_id text, p_from text[], p_status text, p_data jsonb default '{}'::jsonb
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row simulated_payments.objects%rowtype;
begin
  update simulated_payments.objects o
     set status = coalesce(p_status, o.status),
         data = o.data || coalesce(p_data, '{}'::jsonb),
         updated_at = now()
   where o.id = p_id and (p_from is null or o.status = any (p_from))
  returning * into v_row;
  if not found then
    return null;
  end if;
  return simulated_payments.to_json(v_row);
end
$$;

/** Changes the owner of a record (detaching a card from its customer); returns whether it existed. */
create or replace function public.simulated_payments_set_owner(p_id text, p_owner text) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update simulated_payments.objects o set owner = p_owner, updated_at = now() where o.id = p_id;
  return found;
end
$$;

revoke execute on function simulated_payments.to_json(simulated_payments.objects) from public, anon, authenticated;
revoke execute on function public.simulated_payments_put(text, text, text, text, jsonb, text) from public, anon, authenticated;
revoke execute on function public.simulated_payments_get(text) from public, anon, authenticated;
revoke execute on function public.simulated_payments_list(text, text) from public, anon, authenticated;
revoke execute on function public.simulated_payments_update(text, text[], text, jsonb) from public, anon, authenticated;
revoke execute on function public.simulated_payments_set_owner(text, text) from public, anon, authenticated;
grant execute on function simulated_payments.to_json(simulated_payments.objects) to service_role;
grant execute on function public.simulated_payments_put(text, text, text, text, jsonb, text) to service_role;
grant execute on function public.simulated_payments_get(text) to service_role;
grant execute on function public.simulated_payments_list(text, text) to service_role;
grant execute on function public.simulated_payments_update(text, text[], text, jsonb) to service_role;
grant execute on function public.simulated_payments_set_owner(text, text) to service_role;
