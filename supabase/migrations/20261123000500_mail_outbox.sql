-- The outbox of the shop's transactional e-mails (order confirmation, status e-mails).
-- The server writes each e-mail here before sending it, so a failed send is retried with backoff
-- and a restart loses nothing. Only the service role reads or writes it: row-level security is on
-- with no policy, and anon/authenticated have no grant at all.
--
-- Lifecycle: 'pending' (queued) -> 'sending' (claimed by one server process) -> 'sent', or
-- 'failed' with last_error and next_attempt_at in the future (retried), or 'failed' with
-- next_attempt_at null (given up after the last attempt; for the admins to look at).

create table public.mail_outbox (
  id uuid primary key default gen_random_uuid(),
  to_address text not null,
  subject text not null,
  html text not null,
  text_body text not null,
  -- What the e-mail is about, e.g. 'order_paid'.
  kind text not null,
  -- The same e-mail for the same order/event is queued once (e.g. 'order_paid:<order id>').
  dedupe_key text unique,
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed')),
  attempts int not null default 0 check (attempts >= 0),
  -- When a pending or failed e-mail is due; null once it is sent or given up.
  next_attempt_at timestamptz default now(),
  -- When the current 'sending' claim was taken; a claim older than 5 minutes is taken again
  -- (the process that held it died or hung).
  claimed_at timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);

create index mail_outbox_due_idx on public.mail_outbox (next_attempt_at) where status in ('pending', 'failed');
create index mail_outbox_sending_idx on public.mail_outbox (claimed_at) where status = 'sending';

alter table public.mail_outbox enable row level security;
revoke all on public.mail_outbox from public, anon, authenticated;
grant select, insert, update, delete on public.mail_outbox to service_role;

-- Claims up to p_limit due e-mails for this caller: pending/failed ones whose next_attempt_at has
-- come, and 'sending' ones whose claim is older than 5 minutes. Rows another process is claiming
-- right now are skipped (for update skip locked), so several servers never send the same e-mail
-- at once. Claimed rows become 'sending' with one more attempt and are returned.
create function public.mail_outbox_claim(p_limit int default 20)
returns setof public.mail_outbox
language sql
volatile
set search_path = public, pg_temp
as $$
  update public.mail_outbox m
     set status = 'sending', attempts = m.attempts + 1, claimed_at = now()
   where m.id in (
     select o.id
       from public.mail_outbox o
      where (o.status in ('pending', 'failed') and o.next_attempt_at <= now())
         or (o.status = 'sending' and o.claimed_at < now() - interval '5 minutes')
      order by coalesce(o.next_attempt_at, o.claimed_at), o.created_at
      limit least(greatest(coalesce(p_limit, 20), 0), 500)
      for update skip locked
   )
  returning m.*
$$;

revoke execute on function public.mail_outbox_claim(int) from public, anon, authenticated;
grant execute on function public.mail_outbox_claim(int) to service_role;
