-- 'Registrar llegada': the goods of a preorder campaign arrive and the shop fills its paid
-- preorders, in one transaction under the campaign's lock:
--   * waitlisted lines (from earlier shipments) first, then the lines still awaiting their first
--     shipment, each group oldest payment first (orders.paid_at);
--   * a line is filled whole or not at all: an order of 2 units with 1 unit left is not filled
--     (and a later order of 1 unit may take that unit);
--   * a line not filled is waitlisted when its shopper chose 'Si no alcanza, mantenerme en lista
--     de espera', else marked refunded (the server then refunds the order through the shop's
--     refund machinery: card and PayPal through the provider, OXXO and balance to the balance);
--   * units no paid preorder takes become the product's (or offer's) ordinary stock.
-- Orders still unpaid keep waiting for the next arrival. The arrival is recorded once per
-- idempotency key: the same key again (a double click, a retried request) replays the stored
-- result and allocates nothing.
create function public.preorder_register_arrival(p_campaign_id uuid, p_quantity integer, p_key text, p_actor uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_campaign public.preorder_campaigns%rowtype;
  v_arrival public.preorder_arrivals%rowtype;
  v_left integer;
  v_line record;
  v_to text;
  v_lines jsonb := '[]'::jsonb;
  v_filled integer := 0;
  v_result jsonb;
begin
  if p_key is null or length(p_key) not between 8 and 100 then
    raise exception 'Falta la clave de la llegada.' using errcode = 'P0001', detail = 'invalid_key';
  end if;
  if p_quantity is null or p_quantity < 0 or p_quantity > 1000000 then
    raise exception 'La cantidad recibida debe ser un número entero entre 0 y 1000000.'
      using errcode = 'P0001', detail = 'invalid_quantity';
  end if;
  select * into v_campaign from public.preorder_campaigns c where c.id = p_campaign_id;
  if not found then
    raise exception 'Preventa no encontrada.' using errcode = 'P0001', detail = 'campaign_not_found';
  end if;
  -- The locks create_order takes, in its order: the product, the offer, then the campaign.
  perform 1 from public.products p where p.id = v_campaign.product_id for update;
  if v_campaign.offer_id is not null then
    perform 1 from public.card_offers c where c.id = v_campaign.offer_id for update;
  end if;
  select * into v_campaign from public.preorder_campaigns c where c.id = p_campaign_id for update;

  select * into v_arrival from public.preorder_arrivals a where a.idempotency_key = p_key;
  if found then
    if v_arrival.campaign_id <> p_campaign_id then
      raise exception 'Esa llegada ya se registró para otra preventa.' using errcode = 'P0001', detail = 'key_reused';
    end if;
    return v_arrival.result || jsonb_build_object('replayed', true);
  end if;
  insert into public.preorder_arrivals (campaign_id, idempotency_key, quantity, actor)
  values (p_campaign_id, p_key, p_quantity, p_actor)
  returning * into v_arrival;

  v_left := p_quantity;
  for v_line in
    select l.order_id, l.user_id, l.quantity, l.waitlist, l.status, o.payment_method
      from public.preorder_lines l
      join public.orders o on o.id = l.order_id
     where l.campaign_id = p_campaign_id
       and l.status in ('awaiting', 'waitlisted')
       and o.status in ('Pagado', 'Procesando')
     order by (l.status = 'waitlisted') desc, o.paid_at, o.id
     for update of l
  loop
    if v_line.quantity <= v_left then
      v_to := 'allocated';
      v_left := v_left - v_line.quantity;
      v_filled := v_filled + v_line.quantity;
    elsif v_line.waitlist then
      v_to := 'waitlisted';
    else
      v_to := 'refunded';
    end if;
    update public.preorder_lines l
       set status = v_to, arrival_id = v_arrival.id, updated_at = now()
     where l.order_id = v_line.order_id and l.campaign_id = p_campaign_id;
    insert into public.preorder_events (campaign_id, order_id, arrival_id, from_status, to_status, actor, note)
    values (p_campaign_id, v_line.order_id, v_arrival.id, v_line.status, v_to, p_actor,
            format('Llegada de %s unidades', p_quantity));
    v_lines := v_lines || jsonb_build_object(
      'order_id', v_line.order_id, 'user_id', v_line.user_id, 'quantity', v_line.quantity,
      'outcome', v_to, 'payment_method', v_line.payment_method);
  end loop;

  if v_left > 0 then
    if v_campaign.offer_id is null then
      update public.products p set stock = p.stock + v_left where p.id = v_campaign.product_id;
    else
      update public.card_offers c set stock = c.stock + v_left where c.id = v_campaign.offer_id;
    end if;
  end if;

  v_result := jsonb_build_object(
    'arrival_id', v_arrival.id, 'campaign_id', p_campaign_id, 'product_id', v_campaign.product_id,
    'offer_id', v_campaign.offer_id, 'release_date', v_campaign.release_date, 'received', p_quantity,
    'allocated', v_filled, 'to_stock', v_left, 'lines', v_lines);
  update public.preorder_arrivals a set result = v_result where a.id = v_arrival.id;
  return v_result || jsonb_build_object('replayed', false);
end;
$$;
revoke all on function public.preorder_register_arrival(uuid, integer, text, uuid) from public, anon, authenticated;
grant execute on function public.preorder_register_arrival(uuid, integer, text, uuid) to service_role;

-- The back office's list: every campaign with its numbers.
create function public.admin_preorder_campaigns()
returns table (
  id uuid, product_id text, product_name text, offer_id uuid, release_date date,
  opens_at timestamptz, closes_at timestamptz, allocation integer, per_customer_limit integer,
  per_order_limit integer, published boolean, orders integer, units integer, allocated integer,
  waitlisted integer, refunded integer, received integer
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede ver las preventas.' using errcode = '42501', detail = 'not_admin';
  end if;
  return query
  select c.id, c.product_id, p.name, c.offer_id, c.release_date, c.opens_at, c.closes_at, c.allocation,
         c.per_customer_limit, c.per_order_limit, c.published,
         (select count(*)::integer from public.preorder_lines l join public.orders o on o.id = l.order_id
           where l.campaign_id = c.id and l.status <> 'refunded'
             and (o.status in ('Pagado', 'Procesando', 'Enviado', 'Completado')
                  or (o.status = 'Pendiente' and (o.expires_at is null or o.expires_at > now())))),
         public.preorder_units_taken(c.id),
         (select coalesce(sum(l.quantity), 0)::integer from public.preorder_lines l
           where l.campaign_id = c.id and l.status = 'allocated'),
         (select coalesce(sum(l.quantity), 0)::integer from public.preorder_lines l
           join public.orders o on o.id = l.order_id
           where l.campaign_id = c.id and l.status = 'waitlisted' and o.status in ('Pagado', 'Procesando')),
         (select coalesce(sum(l.quantity), 0)::integer from public.preorder_lines l
           where l.campaign_id = c.id and l.status = 'refunded'),
         (select coalesce(sum(a.quantity), 0)::integer from public.preorder_arrivals a where a.campaign_id = c.id)
    from public.preorder_campaigns c
    join public.products p on p.id = c.product_id
   order by c.release_date, p.name;
end;
$$;
revoke all on function public.admin_preorder_campaigns() from public, anon, authenticated;
grant execute on function public.admin_preorder_campaigns() to authenticated, service_role;
