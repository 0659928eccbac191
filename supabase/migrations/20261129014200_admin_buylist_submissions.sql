-- The back office's list of buylist submissions, with who sent each one (docs/buylist.md).

/**
 * Submissions newest first, for admins: optionally of one status, and matching p_search (the
 * number as 'V-000123', '000123' or '123', or part of the shopper's e-mail or name). Each row has
 * the shopper's e-mail and name, the copies sent and total_count (all rows matching).
 */
create function public.admin_buylist_submissions(
  p_status text default null,
  p_search text default null,
  p_limit integer default 25,
  p_offset integer default 0
) returns table (
  id uuid,
  code text,
  created_at timestamptz,
  status text,
  user_id uuid,
  customer_email text,
  customer_name text,
  payout text,
  submitted_cash numeric,
  submitted_credit numeric,
  offer_cash numeric,
  offer_credit numeric,
  expires_at timestamptz,
  received_at timestamptz,
  paid_at timestamptz,
  copies bigint,
  total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := nullif(btrim(coalesce(p_search, '')), '');
  v_number bigint;
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede hacer esto.' using errcode = '42501', detail = 'not_admin';
  end if;
  if v_search ~* '^(v-?)?0*[0-9]{1,12}$' then
    v_number := regexp_replace(v_search, '[^0-9]', '', 'g')::bigint;
  end if;
  return query
    select s.id, s.code, s.created_at, s.status, s.user_id, u.email::text,
           nullif(btrim(concat_ws(' ', p.name, p.lastname)), ''),
           s.payout, s.submitted_cash, s.submitted_credit, s.offer_cash, s.offer_credit,
           s.expires_at, s.received_at, s.paid_at,
           (select coalesce(sum(l.quantity), 0) from public.buylist_submission_lines l where l.submission_id = s.id)::bigint,
           count(*) over ()
      from public.buylist_submissions s
      left join auth.users u on u.id = s.user_id
      left join public.profiles p on p.id = s.user_id
     where (nullif(p_status, '') is null or s.status = p_status)
       and (v_search is null
            or s.number = v_number
            or u.email ilike '%' || v_search || '%'
            or concat_ws(' ', p.name, p.lastname) ilike '%' || v_search || '%')
     order by s.created_at desc, s.number desc
     limit least(greatest(coalesce(p_limit, 25), 1), 200)
    offset greatest(coalesce(p_offset, 0), 0);
end
$$;

revoke execute on function public.admin_buylist_submissions(text, text, integer, integer) from public, anon;
grant execute on function public.admin_buylist_submissions(text, text, integer, integer) to authenticated;
