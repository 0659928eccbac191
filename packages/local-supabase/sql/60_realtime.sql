-- Local-only source of realtime changes. Hosted Supabase reads the write-ahead log; PGlite
-- has no logical replication, so a row trigger (installed by the local realtime server on
-- every table of the supabase_realtime publication, with the primary-key columns as
-- arguments) sends the changed row's primary key with NOTIFY. Only the key is sent: NOTIFY
-- payloads are capped at 8000 bytes, and the server reads the row itself as each
-- subscriber, so row-level security decides who sees it.
create schema if not exists realtime_local;
revoke all on schema realtime_local from public;

create or replace function realtime_local.notify_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  new_row jsonb;
  old_row jsonb;
  pk jsonb := '{}'::jsonb;
  old_pk jsonb := '{}'::jsonb;
  col text;
  payload text;
begin
  if tg_op <> 'DELETE' then
    new_row := to_jsonb(new);
  end if;
  if tg_op <> 'INSERT' then
    old_row := to_jsonb(old);
  end if;
  foreach col in array tg_argv loop
    if new_row is not null then
      pk := pk || jsonb_build_object(col, new_row -> col);
    end if;
    if old_row is not null then
      old_pk := old_pk || jsonb_build_object(col, old_row -> col);
    end if;
  end loop;
  payload := jsonb_build_object(
    'schema', tg_table_schema,
    'table', tg_table_name,
    'type', tg_op,
    'pk', case when tg_op = 'DELETE' then null else pk end,
    'old_pk', case when tg_op = 'INSERT' then null else old_pk end,
    'commit_timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  )::text;
  -- A key too long for NOTIFY must not make the write itself fail; the change is just not sent.
  if octet_length(payload) < 7900 then
    perform pg_notify('realtime', payload);
  end if;
  return null;
end
$$;
revoke execute on function realtime_local.notify_change() from public;
