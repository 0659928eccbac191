-- Realtime: the account page refreshes when the user's profile, addresses or orders change,
-- and catalogue pages when expansions or products change. Guarded so it never fails when a
-- table is already published (hosted projects may have added it from the dashboard).
do $$
declare
  t text;
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
  foreach t in array array['profiles', 'addresses', 'orders', 'expansions', 'products'] loop
    if not exists (
      select 1 from pg_publication_tables
       where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = t
    ) then
      execute format('alter publication supabase_realtime add table public.%I', t);
    end if;
  end loop;
end
$$;
