-- Product edits in the back office never sell a unit twice, and the back office says how each
-- order was paid.
--
--   admin_save_product  the product edit dialog's save: the product's fields and its stock, written
--                       only when the stock is still the one the dialog read (compare and set).
--                       Shoppers reserve units meanwhile (create_order takes them off
--                       products.stock); writing back the stock read when the dialog opened would
--                       put those units on sale again. When the stock moved, nothing is written and
--                       the answer carries the current stock, so the admin can review and save
--                       again. Admins only.
--   admin_orders        as before (20261123002000_back_office.sql), and each row carries the
--                       order's payment_method and installments, so the back office can say how it
--                       was paid without the provider's internal name.

/**
 * Saves a product from the back office's edit dialog. p_stock_read is the stock the dialog showed,
 * p_stock the stock wanted. The row is locked; when its stock is no longer p_stock_read nothing is
 * written and the answer is {"saved": false, "stock": <current stock>}. Otherwise price,
 * original_price (and the discount flag it gives), stock, limit_per_customer, available, preorder,
 * release_date, description and images (the first is the main image) are written and the answer is
 * {"saved": true, "stock": <new stock>, "product": {<the saved row's back-office columns>}}.
 */
create or replace function public.admin_save_product(
  p_product_id text,
  p_stock_read integer,
  p_stock integer,
  p_price numeric,
  p_original_price numeric,
  p_limit_per_customer integer,
  p_available boolean,
  p_preorder boolean,
  p_release_date date,
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
         description = coalesce(p_description, ''),
         images = v_images,
         image = v_images[1]
   where p.id = p_product_id
  returning jsonb_build_object(
    'id', p.id, 'name', p.name, 'description', p.description, 'price', p.price,
    'original_price', p.original_price, 'discount', p.discount, 'preorder', p.preorder,
    'stock', p.stock, 'limit_per_customer', p.limit_per_customer, 'available', p.available,
    'release_date', p.release_date, 'image', p.image, 'images', to_jsonb(p.images),
    'franchise_id', p.franchise_id, 'expansion_id', p.expansion_id, 'product_type_id', p.product_type_id
  ) into v_product;
  return jsonb_build_object('saved', true, 'stock', p_stock, 'product', v_product);
end
$$;

revoke execute on function public.admin_save_product(text, integer, integer, numeric, numeric, integer, boolean, boolean, date, text, text[]) from public, anon;
grant execute on function public.admin_save_product(text, integer, integer, numeric, numeric, integer, boolean, boolean, date, text, text[]) to authenticated;

-- The returned columns change, which create or replace cannot do: the function is dropped and
-- created again with its grants.
drop function if exists public.admin_orders(text, date, date, text, integer, integer, uuid);

/**
 * The back office's order list, newest first: filtered by status, by a date range (Mexico City
 * days, inclusive) and by a search (the '#XXXXXX' number, part of the e-mail or of the name), one
 * page at a time; every row carries total_count. p_order_id reads one order. Admins only.
 */
create or replace function public.admin_orders(
  p_status text default null,
  p_from date default null,
  p_to date default null,
  p_search text default null,
  p_limit integer default 25,
  p_offset integer default 0,
  p_order_id uuid default null
) returns table (
  id uuid,
  created_at timestamptz,
  status text,
  user_id uuid,
  customer_email text,
  customer_name text,
  subtotal numeric,
  discount numeric,
  shipping numeric,
  total numeric,
  coupon_code text,
  paid_at timestamptz,
  payment_provider text,
  payment_ref text,
  payment_method text,
  installments smallint,
  shipping_address jsonb,
  carrier text,
  tracking_number text,
  shipped_at timestamptz,
  completed_at timestamptz,
  refunded_at timestamptz,
  refund_ref text,
  total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := nullif(btrim(coalesce(p_search, '')), '');
  v_number text;
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede ver los pedidos de la tienda.'
      using errcode = '42501', detail = 'not_admin';
  end if;
  if v_search is not null and v_search ~ '^#?[0-9A-Fa-f]{6}$' then
    v_number := lower(ltrim(v_search, '#'));
  end if;
  return query
    select o.id, o.created_at, o.status, o.user_id, u.email::text,
           nullif(btrim(concat_ws(' ', p.name, p.lastname)), ''),
           o.subtotal, o.discount, o.shipping, o.total, o.coupon_code, o.paid_at,
           o.payment_provider, o.payment_ref, o.payment_method, o.installments,
           o.shipping_address, o.carrier, o.tracking_number,
           o.shipped_at, o.completed_at, o.refunded_at, o.refund_ref,
           count(*) over ()
      from public.orders o
      left join auth.users u on u.id = o.user_id
      left join public.profiles p on p.id = o.user_id
     where (p_order_id is null or o.id = p_order_id)
       and (nullif(p_status, '') is null or o.status = p_status)
       and (p_from is null or (o.created_at at time zone 'America/Mexico_City')::date >= p_from)
       and (p_to is null or (o.created_at at time zone 'America/Mexico_City')::date <= p_to)
       and (
         v_search is null
         or (v_number is not null and right(o.id::text, 6) = v_number)
         or u.email ilike '%' || v_search || '%'
         or concat_ws(' ', p.name, p.lastname) ilike '%' || v_search || '%'
         or p.username ilike '%' || v_search || '%'
       )
     order by o.created_at desc, o.id
     limit least(greatest(coalesce(p_limit, 25), 1), 100)
    offset greatest(coalesce(p_offset, 0), 0);
end
$$;

revoke execute on function public.admin_orders(text, date, date, text, integer, integer, uuid) from public, anon;
grant execute on function public.admin_orders(text, date, date, text, integer, integer, uuid) to authenticated;
