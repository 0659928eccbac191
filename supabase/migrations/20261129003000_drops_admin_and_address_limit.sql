-- Timed drops (products.on_sale_at, 20261129001100_on_sale_at.sql): the back office sets the
-- instant, and a drop's units are limited per delivery address across accounts.
--
--   admin_save_product        takes p_on_sale_at (null: on sale now) and returns it with the saved
--                             row; otherwise as before (20261125000300): admins only, the stock
--                             written only when it is still the one the dialog read.
--   drop_address_key          the normalised delivery address a drop's limit counts by: street,
--                             postal code and country, lower case, accents folded, everything but
--                             letters and digits left out, the postal code padded to 5 digits.
--   order_drop_address_key    an order's key: a pending order's chosen address
--                             (shipping_address_id), a paid one's copy (shipping_address).
--   check_drop_address_limit  for each drop product (on_sale_at not null) in an order: the units of
--                             it in live orders (pending and not expired; paid, processing, shipped
--                             or completed) of any account delivered to the same key, this order's
--                             included, may not exceed the product's limit_per_customer. Each
--                             (product, address) pair is taken under a transaction advisory lock,
--                             so two accounts attaching the same address at once are judged one
--                             after the other. Refused with detail 'drop_address_limit:<product id>'.
--   orders_drop_address_limit the check where the address is attached (a pending order's
--                             shipping_address_id set or changed, through the shopper's REST
--                             update) and again when the order becomes paid (mark_order_paid's
--                             update, under the order's row lock, with the address copied then:
--                             an address edited after it was attached is judged as it is paid).

-- admin_save_product ------------------------------------------------------------------------------

drop function public.admin_save_product(text, integer, integer, numeric, numeric, integer, boolean, boolean, date, text, text[]);

/**
 * Saves a product from the back office's edit dialog. p_stock_read is the stock the dialog showed,
 * p_stock the stock wanted. The row is locked; when its stock is no longer p_stock_read nothing is
 * written and the answer is {"saved": false, "stock": <current stock>}. Otherwise price,
 * original_price (and the discount flag it gives), stock, limit_per_customer, available, preorder,
 * release_date, on_sale_at, description and images (the first is the main image) are written and
 * the answer is {"saved": true, "stock": <new stock>, "product": {<the saved row's back-office
 * columns>}}.
 */
create function public.admin_save_product(
  p_product_id text,
  p_stock_read integer,
  p_stock integer,
  p_price numeric,
  p_original_price numeric,
  p_limit_per_customer integer,
  p_available boolean,
  p_preorder boolean,
  p_release_date date,
  p_on_sale_at timestamptz,
  p_description text,
  p_images text[]
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_current integer;
  v_images text[] := coalesce(p_images, '{}'::text[]);
  v_product jsonb;
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede editar productos.' using errcode = '42501', detail = 'not_admin';
  end if;
  if p_stock_read is null or p_stock is null then
    raise exception 'Falta el stock del producto.' using errcode = 'P0001', detail = 'stock_required';
  end if;

  -- The same lock create_order and the cancellations take before they change the stock.
  select p.stock into v_current from public.products p where p.id = p_product_id for update;
  if not found then
    raise exception 'Producto no encontrado.' using errcode = 'P0001', detail = 'product_not_found';
  end if;
  if v_current <> p_stock_read then
    return jsonb_build_object('saved', false, 'stock', v_current);
  end if;

  update public.products p
     set price = p_price,
         original_price = p_original_price,
         discount = coalesce(p_original_price > p_price, false),
         stock = p_stock,
         limit_per_customer = p_limit_per_customer,
         available = p_available,
         preorder = p_preorder,
         release_date = p_release_date,
         on_sale_at = p_on_sale_at,
         description = coalesce(p_description, ''),
         images = v_images,
         image = v_images[1]
   where p.id = p_product_id
  returning jsonb_build_object(
    'id', p.id, 'name', p.name, 'description', p.description, 'price', p.price,
    'original_price', p.original_price, 'discount', p.discount, 'preorder', p.preorder,
    'stock', p.stock, 'limit_per_customer', p.limit_per_customer, 'available', p.available,
    'release_date', p.release_date, 'on_sale_at', p.on_sale_at, 'image', p.image, 'images', to_jsonb(p.images),
    'franchise_id', p.franchise_id, 'expansion_id', p.expansion_id, 'product_type_id', p.product_type_id
  ) into v_product;
  return jsonb_build_object('saved', true, 'stock', p_stock, 'product', v_product);
end
$$;

revoke execute on function public.admin_save_product(text, integer, integer, numeric, numeric, integer, boolean, boolean, date, timestamptz, text, text[]) from public, anon;
grant execute on function public.admin_save_product(text, integer, integer, numeric, numeric, integer, boolean, boolean, date, timestamptz, text, text[]) to authenticated;

-- A drop's limit per delivery address --------------------------------------------------------------

create function public.drop_address_key(p_street text, p_zip text, p_country text) returns text
language sql
immutable
set search_path = ''
as $$
  select regexp_replace(translate(lower(coalesce(p_street, '')), 'áàäâãéèëêíìïîóòöôõúùüûñç', 'aaaaaeeeeiiiiooooouuuunc'), '[^a-z0-9]+', '', 'g')
    || '|' || lpad(regexp_replace(coalesce(p_zip, ''), '[^0-9]+', '', 'g'), 5, '0')
    || '|' || regexp_replace(translate(lower(coalesce(p_country, '')), 'áàäâãéèëêíìïîóòöôõúùüûñç', 'aaaaaeeeeiiiiooooouuuunc'), '[^a-z0-9]+', '', 'g')
$$;

create function public.order_drop_address_key(p_status public.order_status, p_address_id uuid, p_copy jsonb) returns text
language sql
stable
set search_path = ''
as $$
  select case
    when p_status <> 'Pendiente' and p_copy is not null and p_copy ? 'street' then
      public.drop_address_key(p_copy ->> 'street', p_copy ->> 'zip', p_copy ->> 'country')
    else coalesce(
      (select public.drop_address_key(a.street, a.zip, a.country) from public.addresses a where a.id = p_address_id),
      case when p_copy is not null and p_copy ? 'street' then public.drop_address_key(p_copy ->> 'street', p_copy ->> 'zip', p_copy ->> 'country') end
    )
  end
$$;

create function public.check_drop_address_limit(p_order_id uuid, p_key text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_line record;
  v_elsewhere bigint;
begin
  if p_key is null then
    return;
  end if;
  for v_line in
    select i.product_id, p.name, p.limit_per_customer, sum(i.quantity)::bigint as quantity
      from public.order_items i
      join public.products p on p.id = i.product_id
     where i.order_id = p_order_id and p.on_sale_at is not null
     group by i.product_id, p.name, p.limit_per_customer
     order by i.product_id
  loop
    perform pg_advisory_xact_lock(hashtextextended('drop_address:' || v_line.product_id || ':' || p_key, 0));
    select coalesce(sum(i.quantity), 0) into v_elsewhere
      from public.order_items i
      join public.orders o on o.id = i.order_id
     where i.product_id = v_line.product_id
       and o.id <> p_order_id
       and (
         o.status in ('Pagado', 'Procesando', 'Enviado', 'Completado')
         or (o.status = 'Pendiente' and (o.expires_at is null or o.expires_at > now()))
       )
       and public.order_drop_address_key(o.status, o.shipping_address_id, o.shipping_address) = p_key;
    if v_elsewhere + v_line.quantity > v_line.limit_per_customer then
      raise exception 'Ya se alcanzó el límite de este lanzamiento para esta dirección de envío: «%» admite % por domicilio.',
        v_line.name, v_line.limit_per_customer
        using errcode = 'P0001', detail = 'drop_address_limit:' || v_line.product_id;
    end if;
  end loop;
end;
$$;

revoke all on function public.drop_address_key(text, text, text) from public, anon, authenticated;
revoke all on function public.order_drop_address_key(public.order_status, uuid, jsonb) from public, anon, authenticated;
revoke all on function public.check_drop_address_limit(uuid, text) from public, anon, authenticated;

create function public.orders_drop_address_limit() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'Pendiente' and new.shipping_address_id is not null
     and new.shipping_address_id is distinct from old.shipping_address_id then
    perform public.check_drop_address_limit(new.id, public.order_drop_address_key(new.status, new.shipping_address_id, null));
  elsif new.status = 'Pagado' and old.status is distinct from 'Pagado' then
    perform public.check_drop_address_limit(new.id, public.order_drop_address_key(new.status, new.shipping_address_id, new.shipping_address));
  end if;
  return new;
end;
$$;

revoke all on function public.orders_drop_address_limit() from public, anon, authenticated;

create trigger orders_drop_address_limit before update of shipping_address_id, status on public.orders
  for each row execute function public.orders_drop_address_limit();
