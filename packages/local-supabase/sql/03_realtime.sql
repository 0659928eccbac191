-- Local-only: hosted projects ship an empty `supabase_realtime` publication; the realtime
-- migration adds the shop's tables to it.
do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end
$$;
