-- Sign-up checks whether a username is free before creating the account. Anonymous visitors cannot
-- read profiles (row-level security), so this function answers only that one yes/no question,
-- case-insensitively and ignoring surrounding spaces, like the unique index on lower(username).
create or replace function public.username_available(username text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select nullif(btrim(username_available.username), '') is not null
     and not exists (
       select 1 from public.profiles p
       where lower(p.username) = lower(btrim(username_available.username))
     );
$$;

revoke all on function public.username_available(text) from public;
grant execute on function public.username_available(text) to anon, authenticated, service_role;
