-- Catalogue rebuilds shared by every server process of one site.
--
--   rebuild_jobs            one row per rebuild: at most one queued and one running per site (the
--                           servers that publish into one output folder, named by SITE_URL). A
--                           request merges into the queued job (its product ids are added; a full
--                           request makes it full); a server claims the queued job only when no
--                           job of its site is running, and holds it with a lease it renews while
--                           it builds. A job whose lease ran out (its server died or stalled) is
--                           queued again and the next claim retries it (three attempts at most).
--   rebuild_change_keys     the product changes already asked for: every server watches product
--                           changes and asks for a rebuild, but a change (product id, commit time,
--                           event) counts once, so the servers' requests for it become one.
--   rebuild_admin_requests  the admins' rebuild requests of the last hour, counted across servers
--                           for the rate limit of POST /api/admin/rebuild.
--
-- Only the service role (the shop's servers) uses them, through the functions below.

create table public.rebuild_jobs (
  id bigint generated always as identity primary key,
  site text not null check (char_length(site) between 1 and 300),
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  -- The products that changed; null asks for a full build.
  product_ids text[],
  reasons text[] not null default '{}',
  requests integer not null default 1,
  requested_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  holder text,
  lease_until timestamptz,
  attempts integer not null default 0,
  progress jsonb,
  pages integer,
  error text
);
create unique index rebuild_jobs_one_queued on public.rebuild_jobs (site) where status = 'queued';
create unique index rebuild_jobs_one_running on public.rebuild_jobs (site) where status = 'running';
create index rebuild_jobs_site_finished on public.rebuild_jobs (site, finished_at desc) where finished_at is not null;

create table public.rebuild_change_keys (
  site text not null,
  key text not null,
  seen_at timestamptz not null default now(),
  primary key (site, key)
);
create index rebuild_change_keys_seen on public.rebuild_change_keys (seen_at);

create table public.rebuild_admin_requests (
  id bigint generated always as identity primary key,
  admin_id uuid not null,
  requested_at timestamptz not null default now()
);
create index rebuild_admin_requests_admin on public.rebuild_admin_requests (admin_id, requested_at);

alter table public.rebuild_jobs enable row level security;
alter table public.rebuild_change_keys enable row level security;
alter table public.rebuild_admin_requests enable row level security;
revoke all on public.rebuild_jobs, public.rebuild_change_keys, public.rebuild_admin_requests from anon, authenticated;

/** The union of two product id lists; null (a full build) absorbs everything. */
create or replace function public.rebuild_merge_ids(a text[], b text[]) returns text[]
language sql
immutable
set search_path = ''
as $$
  select case
    when a is null or b is null then null
    else array(select distinct x from unnest(a || b) as x order by x)
  end
$$;

/**
 * Asks for a rebuild of p_site: merges into the queued job or queues a new one. p_product_ids null
 * asks for a full build. With p_keys (one per product change), a request whose changes were all
 * asked for already (by another server that saw the same changes) does nothing.
 * Returns {"deduplicated": bool, "job": id or null}.
 */
create or replace function public.request_catalogue_rebuild(
  p_site text,
  p_reason text,
  p_product_ids text[] default null,
  p_keys text[] default null
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_new integer;
  v_id bigint;
begin
  perform pg_advisory_xact_lock(hashtextextended('catalogue-rebuild:' || p_site, 0));
  if p_keys is not null and cardinality(p_keys) > 0 then
    delete from public.rebuild_change_keys where seen_at < now() - interval '1 day';
    with added as (
      insert into public.rebuild_change_keys (site, key)
      select p_site, k from unnest(p_keys) as k
      on conflict do nothing
      returning 1
    )
    select count(*) into v_new from added;
    if v_new = 0 then
      return jsonb_build_object('deduplicated', true, 'job', null);
    end if;
  end if;
  update public.rebuild_jobs
     set product_ids = public.rebuild_merge_ids(product_ids, p_product_ids),
         reasons = (reasons || left(p_reason, 40))[greatest(1, cardinality(reasons) - 18):],
         requests = requests + 1
   where site = p_site and status = 'queued'
  returning id into v_id;
  if v_id is null then
    insert into public.rebuild_jobs (site, product_ids, reasons)
    values (p_site, p_product_ids, array[left(p_reason, 40)])
    returning id into v_id;
  end if;
  return jsonb_build_object('deduplicated', false, 'job', v_id);
end
$$;

/**
 * Claims p_site's queued job for p_holder for p_seconds, unless a job of the site is running.
 * First, a running job whose lease ran out is queued again (merged into the queued one if there
 * is one), or failed after three attempts. Returns the claimed job or null.
 */
create or replace function public.claim_catalogue_rebuild(p_site text, p_holder text, p_seconds integer default 30) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_stale public.rebuild_jobs;
  v_queued bigint;
  v_job public.rebuild_jobs;
begin
  perform pg_advisory_xact_lock(hashtextextended('catalogue-rebuild:' || p_site, 0));
  for v_stale in
    select * from public.rebuild_jobs where site = p_site and status = 'running' and lease_until < now()
  loop
    if v_stale.attempts >= 3 then
      update public.rebuild_jobs
         set status = 'failed', finished_at = now(), lease_until = null, progress = null,
             error = 'El servidor que la hacía se detuvo tres veces; no se reintenta.'
       where id = v_stale.id;
      continue;
    end if;
    select id into v_queued from public.rebuild_jobs where site = p_site and status = 'queued';
    if v_queued is null then
      update public.rebuild_jobs
         set status = 'queued', holder = null, lease_until = null, progress = null,
             reasons = reasons || 'reintento'::text
       where id = v_stale.id;
    else
      update public.rebuild_jobs q
         set product_ids = public.rebuild_merge_ids(q.product_ids, v_stale.product_ids),
             reasons = q.reasons || 'reintento'::text,
             attempts = greatest(q.attempts, v_stale.attempts)
       where q.id = v_queued;
      update public.rebuild_jobs
         set status = 'failed', finished_at = now(), lease_until = null, progress = null,
             error = 'El servidor que la hacía se detuvo; se reintenta junto con la siguiente.'
       where id = v_stale.id;
    end if;
  end loop;
  if exists (select 1 from public.rebuild_jobs where site = p_site and status = 'running') then
    return null;
  end if;
  update public.rebuild_jobs
     set status = 'running', holder = p_holder, started_at = now(), finished_at = null,
         lease_until = now() + make_interval(secs => p_seconds), attempts = attempts + 1,
         progress = null, error = null
   where site = p_site and status = 'queued'
  returning * into v_job;
  if v_job.id is null then
    return null;
  end if;
  return jsonb_build_object('id', v_job.id, 'productIds', to_jsonb(v_job.product_ids), 'reasons', to_jsonb(v_job.reasons), 'attempts', v_job.attempts);
end
$$;

/** Extends p_holder's lease on a running job and records its progress; false once it lost it. */
create or replace function public.renew_catalogue_rebuild(p_id bigint, p_holder text, p_seconds integer default 30, p_progress jsonb default null) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.rebuild_jobs
     set lease_until = now() + make_interval(secs => p_seconds), progress = coalesce(p_progress, progress)
   where id = p_id and holder = p_holder and status = 'running';
  return found;
end
$$;

/** Ends p_holder's running job: done (p_error null) or failed. False when it was no longer its job. */
create or replace function public.finish_catalogue_rebuild(p_id bigint, p_holder text, p_error text default null, p_pages integer default null) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.rebuild_jobs
     set status = case when p_error is null then 'done' else 'failed' end,
         finished_at = now(), lease_until = null, progress = null,
         error = left(p_error, 4000), pages = coalesce(p_pages, pages)
   where id = p_id and holder = p_holder and status = 'running';
  return found;
end
$$;

/**
 * What GET /api/admin/rebuild reports, for every server of p_site: queued when a job waits,
 * building when one runs, else idle; the last finished job's times and error; counts of finished
 * and failed jobs; the running job's progress; the last successful job's time and pages.
 */
create or replace function public.catalogue_rebuild_status(p_site text) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_running public.rebuild_jobs;
  v_last public.rebuild_jobs;
  v_success public.rebuild_jobs;
  v_queued boolean;
  v_builds integer;
  v_failures integer;
begin
  select * into v_running from public.rebuild_jobs where site = p_site and status = 'running';
  select exists (select 1 from public.rebuild_jobs where site = p_site and status = 'queued') into v_queued;
  select * into v_last from public.rebuild_jobs where site = p_site and finished_at is not null order by finished_at desc, id desc limit 1;
  select * into v_success from public.rebuild_jobs where site = p_site and status = 'done' order by finished_at desc, id desc limit 1;
  select count(*) filter (where status in ('done', 'failed')), count(*) filter (where status = 'failed')
    into v_builds, v_failures
    from public.rebuild_jobs where site = p_site;
  return jsonb_build_object(
    'status', case when v_queued then 'queued' when v_running.id is not null then 'building' else 'idle' end,
    'startedAt', coalesce(v_running.started_at, v_last.started_at),
    'finishedAt', v_last.finished_at,
    'durationMs', case when v_last.started_at is not null
      then round(extract(epoch from v_last.finished_at - v_last.started_at) * 1000) end,
    'lastError', case when v_last.status = 'failed' then v_last.error end,
    'builds', v_builds,
    'failures', v_failures,
    'reason', (select r[cardinality(r)] from (select coalesce(v_running.reasons, v_last.reasons) as r) as x),
    'progress', v_running.progress,
    'holder', v_running.holder,
    'lastSuccessAt', v_success.finished_at,
    'lastPages', v_success.pages
  );
end
$$;

/**
 * Records an admin's rebuild request unless p_limit were made in the last p_window_seconds.
 * Returns 0 when recorded, else the seconds until the next one is allowed.
 */
create or replace function public.take_rebuild_request(p_admin uuid, p_limit integer, p_window_seconds integer) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_count integer;
  v_oldest timestamptz;
begin
  perform pg_advisory_xact_lock(hashtextextended('catalogue-rebuild-admin:' || p_admin::text, 0));
  delete from public.rebuild_admin_requests where requested_at < now() - interval '1 day';
  select count(*), min(requested_at) into v_count, v_oldest
    from public.rebuild_admin_requests
   where admin_id = p_admin and requested_at > now() - make_interval(secs => p_window_seconds);
  if v_count >= p_limit then
    return greatest(1, ceil(extract(epoch from v_oldest + make_interval(secs => p_window_seconds) - now()))::integer);
  end if;
  insert into public.rebuild_admin_requests (admin_id) values (p_admin);
  return 0;
end
$$;

revoke execute on function public.rebuild_merge_ids(text[], text[]) from public, anon, authenticated;
revoke execute on function public.request_catalogue_rebuild(text, text, text[], text[]) from public, anon, authenticated;
revoke execute on function public.claim_catalogue_rebuild(text, text, integer) from public, anon, authenticated;
revoke execute on function public.renew_catalogue_rebuild(bigint, text, integer, jsonb) from public, anon, authenticated;
revoke execute on function public.finish_catalogue_rebuild(bigint, text, text, integer) from public, anon, authenticated;
revoke execute on function public.catalogue_rebuild_status(text) from public, anon, authenticated;
revoke execute on function public.take_rebuild_request(uuid, integer, integer) from public, anon, authenticated;
grant execute on function public.rebuild_merge_ids(text[], text[]) to service_role;
grant execute on function public.request_catalogue_rebuild(text, text, text[], text[]) to service_role;
grant execute on function public.claim_catalogue_rebuild(text, text, integer) to service_role;
grant execute on function public.renew_catalogue_rebuild(bigint, text, integer, jsonb) to service_role;
grant execute on function public.finish_catalogue_rebuild(bigint, text, text, integer) to service_role;
grant execute on function public.catalogue_rebuild_status(text) to service_role;
grant execute on function public.take_rebuild_request(uuid, integer, integer) to service_role;
grant select, insert, update, delete on public.rebuild_jobs, public.rebuild_change_keys, public.rebuild_admin_requests to service_role;
