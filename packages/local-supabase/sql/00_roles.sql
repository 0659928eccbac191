-- Local-only bootstrap (never deployed): the roles and privileges a hosted Supabase project
-- already has. Everything is guarded so it can run against an existing cluster.

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end
$$;

-- pgcrypto is a convenience on hosted projects; nothing here depends on it, and PGlite lacks it.
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pgcrypto') then
    create extension if not exists pgcrypto;
  end if;
end
$$;

grant usage on schema public to anon, authenticated, service_role;

-- Like Supabase: objects that migrations create are reachable by the API roles, and row-level
-- security (plus column grants in the migrations) decides what each may actually do.
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
