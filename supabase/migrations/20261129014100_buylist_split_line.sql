-- The owner checks each copy: a line of several copies is split so that some of them can be given
-- another condition (docs/buylist.md).

/**
 * Moves p_quantity copies of a line (fewer than it has) to a new line of the same submission with
 * the same declared card, condition and prices, for a review of their own. Returns {lineId,
 * quantity} of the new line. Refusals: line_not_found, invalid_status:<status>, invalid_quantity.
 */
create function public.admin_buylist_split_line(p_line uuid, p_quantity integer) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_line public.buylist_submission_lines%rowtype;
  v_sub public.buylist_submissions%rowtype;
  v_new uuid;
begin
  perform public.buylist_require_admin();
  select * into v_line from public.buylist_submission_lines l where l.id = p_line;
  if not found then
    raise exception 'Línea no encontrada.' using errcode = 'P0001', detail = 'line_not_found';
  end if;
  v_sub := public.buylist_lock_submission(v_line.submission_id);
  if v_sub.status not in ('recibida', 'en_revision') then
    raise exception 'Esta venta no está en revisión.' using errcode = 'P0001', detail = 'invalid_status:' || v_sub.status;
  end if;
  select * into v_line from public.buylist_submission_lines l where l.id = p_line;
  if p_quantity is null or p_quantity < 1 or p_quantity >= v_line.quantity then
    raise exception 'Se pueden separar entre 1 y % cartas de esta línea.', greatest(v_line.quantity - 1, 0)
      using errcode = 'P0001', detail = 'invalid_quantity';
  end if;
  update public.buylist_submission_lines l
     set quantity = l.quantity - p_quantity,
         rejected_quantity = least(l.rejected_quantity, l.quantity - p_quantity),
         reject_reason = case when least(l.rejected_quantity, l.quantity - p_quantity) > 0 then l.reject_reason end
   where l.id = v_line.id;
  insert into public.buylist_submission_lines (submission_id, position, entry_id, product_id, name, collector_number,
                                               condition, language, finish, quantity, nm_price, unit_cash, unit_credit)
  values (v_line.submission_id,
          (select max(l.position) + 1 from public.buylist_submission_lines l where l.submission_id = v_line.submission_id),
          v_line.entry_id, v_line.product_id, v_line.name, v_line.collector_number, v_line.condition, v_line.language,
          v_line.finish, p_quantity, v_line.nm_price, v_line.unit_cash, v_line.unit_credit)
  returning id into v_new;
  perform public.buylist_event(v_sub.id, 'line_split', v_sub.status, v_sub.status, auth.uid(),
    format('%s: %s de %s cartas a una línea nueva', v_line.collector_number, p_quantity, v_line.quantity), v_new);
  return jsonb_build_object('lineId', v_new, 'quantity', p_quantity);
end
$$;

revoke execute on function public.admin_buylist_split_line(uuid, integer) from public, anon;
grant execute on function public.admin_buylist_split_line(uuid, integer) to authenticated;
