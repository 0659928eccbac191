-- create_order refuses without a lock what it would refuse anyway: before cancel_expired_orders()
-- and the first row lock, each plain line of an available product outside a published preorder
-- campaign is read from the last committed row, and the order is refused at once when the product
-- is not on sale yet (the order_items_on_sale text, detail 'unavailable:<id>') or its stock cannot
-- cover the line while no expired reservation holds units of it ('Stock insuficiente …', detail
-- 'out_of_stock:<id>', hint the stock), as the locked checks would. The pre-check that
-- create_order_unless_sold_out (20261129005000) gave the checkout alone now serves every caller:
-- in a drop's rush the hundreds of shoppers who ask after the last unit no longer wait one by one
-- for the product's row lock to hear 'Stock insuficiente'. Fair as before: a shopper is refused
-- here only when the locked path, at that instant, would have refused them; those who pass are
-- served in lock order. One difference in what a cart of several refused lines hears first: the
-- pre-check's refusal comes before the locked checks of other lines. Every other rule unchanged;
-- same signature.

CREATE OR REPLACE FUNCTION public.create_order(items jsonb, coupon_code text DEFAULT NULL::text, waitlist boolean DEFAULT false)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $$
declare
  v_user uuid := (select auth.uid());
  v_item jsonb;
  v_qty_json jsonb;
  v_qty numeric;
  v_product_id text;
  v_offer_key text;
  v_lines jsonb := '{}'::jsonb;   -- product id -> every unit of the product (for the limit)
  v_plain jsonb := '{}'::jsonb;   -- product id -> units sold as the product itself
  v_offers jsonb := '{}'::jsonb;  -- offer id -> {product_id, quantity}
  v_released jsonb;
  v_released_offers jsonb;
  v_line record;
  v_product public.products%rowtype;
  v_offer public.card_offers%rowtype;
  v_name text;
  v_already integer;
  v_subtotal numeric(12, 2) := 0;
  v_code text := upper(btrim(coalesce(coupon_code, '')));
  v_discount numeric(12, 2) := 0;
  v_shipping numeric(12, 2);
  v_order uuid;
  v_campaign public.preorder_campaigns%rowtype;
  v_pre jsonb := '{}'::jsonb;         -- product id -> campaign id of its preorder line
  v_pre_offers jsonb := '{}'::jsonb;  -- offer id -> campaign id of its preorder line
  v_priced jsonb := '[]'::jsonb;      -- [{product_id, offer_id, amount}] for the promotion's scope
  v_promo jsonb;
  v_free_shipping boolean := false;
begin
  if v_user is null then
    raise exception 'Debes iniciar sesión para finalizar tu compra.'
      using errcode = 'P0001', detail = 'not_authenticated';
  end if;
  if items is null or jsonb_typeof(items) <> 'array' or jsonb_array_length(items) = 0 then
    raise exception 'Tu carrito está vacío.' using errcode = 'P0001', detail = 'empty_order';
  end if;
  if jsonb_array_length(items) > 50 then
    raise exception 'El pedido tiene demasiados productos (máximo 50 líneas).'
      using errcode = 'P0001', detail = 'too_many_items';
  end if;

  -- Validate every line and merge repeated products (and repeated offers); any price sent along
  -- is ignored.
  for v_item in select value from jsonb_array_elements(items) loop
    if jsonb_typeof(v_item) <> 'object'
       or jsonb_typeof(v_item -> 'product_id') is distinct from 'string'
       or length(v_item ->> 'product_id') not between 1 and 200
       or (jsonb_typeof(v_item -> 'offer_id') is not null
           and jsonb_typeof(v_item -> 'offer_id') <> 'null'
           and (jsonb_typeof(v_item -> 'offer_id') <> 'string'
                or (v_item ->> 'offer_id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'))
    then
      raise exception 'Un producto del pedido no es válido.' using errcode = 'P0001', detail = 'invalid_item';
    end if;
    v_qty_json := v_item -> 'quantity';
    if jsonb_typeof(v_qty_json) is distinct from 'number' then
      raise exception 'La cantidad debe ser un número entero entre 1 y 10000.'
        using errcode = 'P0001', detail = 'invalid_quantity';
    end if;
    v_qty := (v_qty_json #>> '{}')::numeric;
    if v_qty <> trunc(v_qty) or v_qty < 1 or v_qty > 10000 then
      raise exception 'La cantidad debe ser un número entero entre 1 y 10000.'
        using errcode = 'P0001', detail = 'invalid_quantity';
    end if;
    v_product_id := v_item ->> 'product_id';
    v_lines := jsonb_set(
      v_lines,
      array[v_product_id],
      to_jsonb(coalesce((v_lines ->> v_product_id)::integer, 0) + v_qty::integer)
    );
    if jsonb_typeof(v_item -> 'offer_id') = 'string' then
      v_offer_key := lower(v_item ->> 'offer_id');
      if v_offers ? v_offer_key and v_offers -> v_offer_key ->> 'product_id' <> v_product_id then
        raise exception 'La opción elegida de «%» no existe.', v_product_id
          using errcode = 'P0001', detail = 'unknown_product:' || v_product_id;
      end if;
      v_offers := jsonb_set(
        v_offers,
        array[v_offer_key],
        jsonb_build_object(
          'product_id', v_product_id,
          'quantity', coalesce((v_offers -> v_offer_key ->> 'quantity')::integer, 0) + v_qty::integer)
      );
    else
      v_plain := jsonb_set(
        v_plain,
        array[v_product_id],
        to_jsonb(coalesce((v_plain ->> v_product_id)::integer, 0) + v_qty::integer)
      );
    end if;
  end loop;

  -- Refusals that need no lock: a plain line of a product not on sale yet, or whose stock cannot
  -- cover its units while no expired reservation holds units of it (cancel_expired_orders below
  -- would put those back first), is refused from the last committed row, with the text and detail
  -- the locked checks below (and order_items_on_sale) give. During a drop the shoppers who ask
  -- after the last unit is sold no longer queue on the product's row lock one by one to hear it.
  -- A product in a published preorder campaign, or not available, is left to the locked checks.
  for v_line in
    select p.id, p.name, p.stock, p.on_sale_at, (v_plain ->> p.id)::integer as quantity
      from public.products p
     where p.id in (select key from jsonb_each(v_plain))
       and p.available
       and not exists (select 1 from public.preorder_campaigns c where c.product_id = p.id and c.offer_id is null and c.published)
     order by p.id
  loop
    if v_line.on_sale_at is not null and v_line.on_sale_at > now() then
      raise exception '«%» aún no está a la venta: sale el % (hora del centro de México).',
        v_line.name, to_char(v_line.on_sale_at at time zone 'America/Mexico_City', 'DD/MM/YYYY "a las" HH24:MI')
        using errcode = 'P0001', detail = 'unavailable:' || v_line.id, hint = v_line.on_sale_at::text;
    end if;
    if v_line.quantity > v_line.stock and not exists (
      select 1 from public.orders o join public.order_items i on i.order_id = o.id
       where o.status = 'Pendiente' and o.expires_at is not null and o.expires_at <= now()
         and i.product_id = v_line.id
    ) then
      raise exception 'Stock insuficiente para «%» (disponible: %).', v_line.name, v_line.stock
        using errcode = 'P0001', detail = 'out_of_stock:' || v_line.id, hint = v_line.stock::text;
    end if;
  end loop;

  -- One ordered pass locks the products being sold and those of expired orders being released,
  -- then one locks the offers the same way, and each puts the released stock back before this
  -- order checks it.
  v_released := public.cancel_expired_orders();
  v_released_offers := coalesce(v_released -> 'offers', '{}'::jsonb);
  v_released := v_released -> 'stock';
  for v_line in
    select ids.product_id from (
      select key as product_id from jsonb_each(v_lines)
      union
      select key from jsonb_each(v_released)
    ) ids
    order by ids.product_id
  loop
    perform 1 from public.products p where p.id = v_line.product_id for update;
    if v_released ? v_line.product_id then
      update public.products p set stock = p.stock + (v_released ->> v_line.product_id)::integer
       where p.id = v_line.product_id;
    end if;
  end loop;
  for v_line in
    select ids.offer_id from (
      select key::uuid as offer_id from jsonb_each(v_offers)
      union
      select key::uuid from jsonb_each(v_released_offers)
    ) ids
    order by ids.offer_id
  loop
    perform 1 from public.card_offers c where c.id = v_line.offer_id for update;
    if v_released_offers ? v_line.offer_id::text then
      update public.card_offers c set stock = c.stock + (v_released_offers ->> v_line.offer_id::text)::integer
       where c.id = v_line.offer_id;
    end if;
  end loop;

  for v_line in
    select key as product_id, value::integer as quantity from jsonb_each_text(v_lines) order by key
  loop
    select * into v_product from public.products p where p.id = v_line.product_id for update;
    if not found then
      raise exception 'El producto «%» no existe.', v_line.product_id
        using errcode = 'P0001', detail = 'unknown_product:' || v_line.product_id;
    end if;
    if not v_product.available then
      raise exception 'El producto «%» no está disponible.', v_product.name
        using errcode = 'P0001', detail = 'unavailable:' || v_product.id;
    end if;
    -- A product in a preorder campaign: inside the window its line is a preorder (no stock, the
    -- campaign's limits and allocation); before it, refused; after it, sold from stock.
    if coalesce((v_plain ->> v_product.id)::integer, 0) > 0 then
      select * into v_campaign from public.preorder_campaigns c
       where c.product_id = v_product.id and c.offer_id is null and c.published
       for update;
      if found then
        if public.preorder_take(v_campaign, v_user, (v_plain ->> v_product.id)::integer, v_product.name) then
          v_pre := jsonb_set(v_pre, array[v_product.id], to_jsonb(v_campaign.id::text));
        elsif (v_plain ->> v_product.id)::integer > v_product.stock then
          raise exception 'La preventa de «%» cerró el %.', v_product.name,
              to_char(v_campaign.closes_at at time zone 'America/Mexico_City', 'DD/MM/YYYY')
            using errcode = 'P0001', detail = 'preorder_closed:' || v_product.id;
        end if;
      end if;
    end if;
    if not v_pre ? v_product.id and coalesce((v_plain ->> v_product.id)::integer, 0) > v_product.stock then
      raise exception 'Stock insuficiente para «%» (disponible: %).', v_product.name, v_product.stock
        using errcode = 'P0001', detail = 'out_of_stock:' || v_product.id, hint = v_product.stock::text;
    end if;
    select coalesce(sum(i.quantity), 0)::integer into v_already
      from public.order_items i
      join public.orders o on o.id = i.order_id
     where o.user_id = v_user
       and i.product_id = v_product.id
       and (
         o.status in ('Pagado', 'Procesando', 'Enviado', 'Completado')
         or (o.status = 'Pendiente' and (o.expires_at is null or o.expires_at > now()))
       );
    if v_already + v_line.quantity > v_product.limit_per_customer then
      raise exception 'Solo puedes comprar % unidad(es) de «%» por cliente (ya tienes % en otros pedidos).',
          v_product.limit_per_customer, v_product.name, v_already
        using errcode = 'P0001', detail = 'limit_exceeded:' || v_product.id,
              hint = greatest(v_product.limit_per_customer - v_already, 0)::text;
    end if;
    v_subtotal := v_subtotal + v_product.price * coalesce((v_plain ->> v_product.id)::integer, 0);
    if coalesce((v_plain ->> v_product.id)::integer, 0) > 0 then
      v_priced := v_priced || jsonb_build_array(jsonb_build_object(
        'product_id', v_product.id, 'offer_id', null,
        'amount', v_product.price * (v_plain ->> v_product.id)::integer));
    end if;
  end loop;

  for v_line in
    select key::uuid as offer_id, value ->> 'product_id' as product_id, (value ->> 'quantity')::integer as quantity
      from jsonb_each(v_offers) order by key::uuid
  loop
    select * into v_offer from public.card_offers c where c.id = v_line.offer_id for update;
    if not found or v_offer.product_id <> v_line.product_id then
      raise exception 'La opción elegida de «%» no existe.', v_line.product_id
        using errcode = 'P0001', detail = 'unknown_product:' || v_line.product_id;
    end if;
    select * into v_campaign from public.preorder_campaigns c
     where c.offer_id = v_offer.id and c.published
     for update;
    if found then
      select p.name into v_name from public.products p where p.id = v_offer.product_id;
      if public.preorder_take(v_campaign, v_user, v_line.quantity, v_name) then
        v_pre_offers := jsonb_set(v_pre_offers, array[v_offer.id::text], to_jsonb(v_campaign.id::text));
      elsif v_line.quantity > v_offer.stock then
        raise exception 'La preventa de «%» cerró el %.', v_name,
            to_char(v_campaign.closes_at at time zone 'America/Mexico_City', 'DD/MM/YYYY')
          using errcode = 'P0001', detail = 'preorder_closed:' || v_offer.product_id;
      end if;
    end if;
    if not v_pre_offers ? v_offer.id::text and v_line.quantity > v_offer.stock then
      select p.name into v_name from public.products p where p.id = v_offer.product_id;
      raise exception 'Stock insuficiente para «%» (disponible: %).', v_name, v_offer.stock
        using errcode = 'P0001', detail = 'out_of_stock:' || v_offer.product_id, hint = v_offer.stock::text;
    end if;
    v_subtotal := v_subtotal + v_offer.price * v_line.quantity;
    v_priced := v_priced || jsonb_build_array(jsonb_build_object(
      'product_id', v_offer.product_id, 'offer_id', v_offer.id, 'amount', v_offer.price * v_line.quantity));
  end loop;

  -- The promotion, its row locked after the stock's: its uses are counted in this transaction.
  if v_code = '' then
    v_code := null;
  else
    v_promo := public.promotion_apply(v_code, v_user, v_priced, true);
    v_code := v_promo ->> 'code';
    v_discount := (v_promo ->> 'discount')::numeric;
    v_free_shipping := (v_promo ->> 'free_shipping')::boolean;
  end if;
  -- The free-shipping threshold is compared with the subtotal before the discount.
  v_shipping := case when v_free_shipping or v_subtotal >= 2999.00 then 0 else 99.00 end;

  insert into public.orders (user_id, status, subtotal, discount, shipping, total, coupon_code, expires_at)
  values (v_user, 'Pendiente', v_subtotal, v_discount, v_shipping,
          v_subtotal - v_discount + v_shipping, v_code, now() + interval '30 minutes')
  returning id into v_order;

  for v_line in
    select key as product_id, value::integer as quantity from jsonb_each_text(v_plain) order by key
  loop
    if v_pre ? v_line.product_id then
      -- A preorder line takes no stock: its units wait for the goods in preorder_lines.
      select * into v_product from public.products p where p.id = v_line.product_id;
      insert into public.order_items (order_id, product_id, quantity, price)
      values (v_order, v_product.id, v_line.quantity, v_product.price);
      insert into public.preorder_lines (order_id, campaign_id, user_id, product_id, offer_id, quantity, waitlist)
      values (v_order, (v_pre ->> v_line.product_id)::uuid, v_user, v_product.id, null, v_line.quantity,
              coalesce(create_order.waitlist, false));
      continue;
    end if;
    -- Guarded even though the row is locked: stock must never go below zero.
    update public.products p set stock = p.stock - v_line.quantity
     where p.id = v_line.product_id and p.stock >= v_line.quantity
    returning * into v_product;
    if not found then
      raise exception 'Stock insuficiente para «%».', v_line.product_id
        using errcode = 'P0001', detail = 'out_of_stock:' || v_line.product_id;
    end if;
    insert into public.order_items (order_id, product_id, quantity, price)
    values (v_order, v_product.id, v_line.quantity, v_product.price);
  end loop;

  for v_line in
    select key::uuid as offer_id, (value ->> 'quantity')::integer as quantity
      from jsonb_each(v_offers) order by key::uuid
  loop
    if v_pre_offers ? v_line.offer_id::text then
      select * into v_offer from public.card_offers c where c.id = v_line.offer_id;
      insert into public.order_items (order_id, product_id, quantity, price, offer_id, offer_label)
      values (v_order, v_offer.product_id, v_line.quantity, v_offer.price, v_offer.id,
              public.card_offer_label(v_offer.condition, v_offer.language, v_offer.finish,
                                      v_offer.grading_company, v_offer.grade));
      insert into public.preorder_lines (order_id, campaign_id, user_id, product_id, offer_id, quantity, waitlist)
      values (v_order, (v_pre_offers ->> v_offer.id::text)::uuid, v_user, v_offer.product_id, v_offer.id,
              v_line.quantity, coalesce(create_order.waitlist, false));
      continue;
    end if;
    update public.card_offers c set stock = c.stock - v_line.quantity
     where c.id = v_line.offer_id and c.stock >= v_line.quantity
    returning * into v_offer;
    if not found then
      raise exception 'Stock insuficiente para «%».', v_line.offer_id
        using errcode = 'P0001', detail = 'out_of_stock:' || v_line.offer_id;
    end if;
    insert into public.order_items (order_id, product_id, quantity, price, offer_id, offer_label)
    values (v_order, v_offer.product_id, v_line.quantity, v_offer.price, v_offer.id,
            public.card_offer_label(v_offer.condition, v_offer.language, v_offer.finish,
                                    v_offer.grading_company, v_offer.grade));
  end loop;

  if v_promo is not null then
    insert into public.promotion_redemptions (promotion_id, order_id, user_id, code, discount, shipping_waived)
    values ((v_promo ->> 'promotion_id')::uuid, v_order, v_user, v_code, v_discount,
            case when v_free_shipping and v_subtotal < 2999.00 then 99.00 else 0 end);
  end if;

  return v_order;
end
$$;
revoke all on function public.create_order(jsonb, text, boolean) from public, anon, service_role;
grant execute on function public.create_order(jsonb, text, boolean) to authenticated;
