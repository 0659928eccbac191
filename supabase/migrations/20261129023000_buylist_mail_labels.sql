-- The buylist's e-mails name each copy as the shop does everywhere else (card_offer_label:
-- 'MP · Inglés · Parallel', not the stored codes 'MP · en · parallel'), and a copy whose condition
-- the shop changed on arrival says so ('condición LP → MP'). Same function, same signature and
-- grants; only the lines' text changes.

create or replace function public.buylist_queue_mail(p_submission uuid, p_step text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub public.buylist_submissions%rowtype;
  v_email text;
  v_subject text;
  v_body text;
  v_lines text;
begin
  select * into v_sub from public.buylist_submissions s where s.id = p_submission;
  select u.email into v_email from auth.users u where u.id = v_sub.user_id;
  if v_email is null then
    return;
  end if;
  select string_agg(format('%s × %s (%s) · %s', l.quantity - l.rejected_quantity, l.name, l.collector_number,
                           public.card_offer_label(coalesce(l.final_condition, l.condition), l.language, l.finish, null, null))
                    || case when l.final_condition is not null and l.final_condition <> l.condition
                            then format(' (condición %s → %s)', l.condition, l.final_condition) else '' end
                    || case when l.rejected_quantity > 0 then format(' — %s rechazada(s): %s', l.rejected_quantity, l.reject_reason) else '' end,
                    E'\n' order by l.position)
    into v_lines
    from public.buylist_submission_lines l where l.submission_id = p_submission;
  case p_step
    when 'submitted' then
      v_subject := format('Recibimos tu venta %s', v_sub.code);
      v_body := format(E'Registramos tu venta %s por %s.\nEnvía tus cartas o llévalas a la tienda antes del %s con la hoja de envío impresa o en tu teléfono; si no llegan a tiempo, la venta vence.',
                       v_sub.code,
                       public.buylist_money(case v_sub.payout when 'saldo' then v_sub.submitted_credit else v_sub.submitted_cash end),
                       to_char(v_sub.expires_at at time zone 'America/Mexico_City', 'DD/MM/YYYY'));
    when 'received' then
      v_subject := format('Llegaron tus cartas de la venta %s', v_sub.code);
      v_body := format(E'Tus cartas de la venta %s llegaron a la tienda. Las revisaremos y te avisaremos.', v_sub.code);
    when 'offer' then
      v_subject := format('Oferta ajustada de tu venta %s', v_sub.code);
      v_body := format(E'Revisamos tus cartas de la venta %s. Nuestra oferta es de %s.\n\n%s\n\nEntra a Mis ventas en tu cuenta para aceptarla o pedir que te devolvamos tus cartas.',
                       v_sub.code,
                       public.buylist_money(case v_sub.payout when 'saldo' then v_sub.offer_credit else v_sub.offer_cash end),
                       coalesce(v_lines, ''));
    when 'accepted' then
      v_subject := format('Aceptaste la oferta de tu venta %s', v_sub.code);
      v_body := format(E'Aceptaste la oferta de %s de tu venta %s. Te avisaremos cuando hagamos la transferencia.',
                       public.buylist_money(v_sub.offer_cash), v_sub.code);
    when 'paid' then
      v_subject := format('Pagamos tu venta %s', v_sub.code);
      v_body := case v_sub.payout
        when 'saldo' then format(E'Abonamos %s a tu saldo a favor por la venta %s.', public.buylist_money(v_sub.offer_credit), v_sub.code)
        else format(E'Transferimos %s a tu CLABE terminada en %s por la venta %s.', public.buylist_money(v_sub.offer_cash), right(v_sub.clabe, 4), v_sub.code)
      end;
    when 'returned', 'return_shipped' then
      v_subject := format('Te devolvimos tus cartas de la venta %s', v_sub.code);
      v_body := format(E'Enviamos tus cartas de la venta %s. Número de guía: %s.', v_sub.code, v_sub.return_tracking);
    when 'expired' then
      v_subject := format('Tu venta %s venció', v_sub.code);
      v_body := format(E'Tus cartas de la venta %s no llegaron a tiempo y la venta venció. Puedes crear una nueva cuando quieras.', v_sub.code);
    else
      return;
  end case;
  insert into public.mail_outbox (to_address, subject, html, text_body, kind, dedupe_key)
  values (v_email, v_subject,
          '<p>' || replace(public.buylist_html(v_body), E'\n', '<br>') || '</p>',
          v_body, 'buylist_' || p_step, 'buylist:' || p_step || ':' || p_submission)
  on conflict (dedupe_key) do nothing;
end
$$;

