-- The back office's product editor sets a product's SAT keys (20261129008000).
--
--   admin_save_product  takes p_sat_product_key and p_sat_unit_key after its previous arguments
--                       (20261129003000), both optional: null keeps the product's key, an empty
--                       text gives it back its default (the product type's product key, 'H87'),
--                       anything else must be SAT's format (ClaveProdServ 8 digits, ClaveUnidad 2
--                       or 3 capitals or digits) or the save is refused with detail
--                       'sat_product_key_invalid' / 'sat_unit_key_invalid'. The saved row it
--                       returns carries both keys. Otherwise as before: admins only, the stock
--                       written only when it is still the one the dialog read.

drop function public.admin_save_product(text, integer, integer, numeric, numeric, integer, boolean, boolean, date, timestamptz, text, text[]);

/**
 * Saves a product from the back office's edit dialog. p_stock_read is the stock the dialog showed,
 * p_stock the stock wanted. The row is locked; when its stock is no longer p_stock_read nothing is
 * written and the answer is {"saved": false, "stock": <current stock>}. Otherwise price,
 * original_price (and the discount flag it gives), stock, limit_per_customer, available, preorder,
 * release_date, on_sale_at, description, images (the first is the main image) and the SAT keys
 * are written and the answer is {"saved": true, "stock": <new stock>, "product": {<the saved row's
 * back-office columns>}}.
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
  p_images text[],
  p_sat_product_key text default null,
  p_sat_unit_key text default null
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_current integer;
  v_images text[] := coalesce(p_images, '{}'::text[]);
  v_product_key text := btrim(p_sat_product_key);
  v_unit_key text := upper(btrim(p_sat_unit_key));
  v_product jsonb;
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede editar productos.' using errcode = '42501', detail = 'not_admin';
  end if;
  if p_stock_read is null or p_stock is null then
    raise exception 'Falta el stock del producto.' using errcode = 'P0001', detail = 'stock_required';
  end if;
  if v_product_key <> '' and (v_product_key !~ '^[0-9]{8}$' or v_product_key = '00000000') then
    raise exception 'La clave de producto o servicio del SAT son 8 dígitos.' using errcode = 'P0001', detail = 'sat_product_key_invalid';
  end if;
  if v_unit_key <> '' and v_unit_key !~ '^[A-Z0-9]{2,3}$' then
    raise exception 'La clave de unidad del SAT son 2 o 3 letras o dígitos (H87: pieza).' using errcode = 'P0001', detail = 'sat_unit_key_invalid';
  end if;

  -- The same lock create_order and the cancellations take before they change the stock.
  select p.stock into v_current from public.products p where p.id = p_product_id for update;
  if not found then
    raise exception 'Producto no encontrado.' using errcode = 'P0001', detail = 'product_not_found';
  end if;
  if v_current <> p_stock_read then
    return jsonb_build_object('saved', false, 'stock', v_current);
  end if;

  -- An empty key is left to products_sat_keys, which gives the product its default.
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
         image = v_images[1],
         sat_product_key = coalesce(v_product_key, p.sat_product_key),
         sat_unit_key = coalesce(v_unit_key, p.sat_unit_key)
   where p.id = p_product_id
  returning jsonb_build_object(
    'id', p.id, 'name', p.name, 'description', p.description, 'price', p.price,
    'original_price', p.original_price, 'discount', p.discount, 'preorder', p.preorder,
    'stock', p.stock, 'limit_per_customer', p.limit_per_customer, 'available', p.available,
    'release_date', p.release_date, 'on_sale_at', p.on_sale_at, 'image', p.image, 'images', to_jsonb(p.images),
    'franchise_id', p.franchise_id, 'expansion_id', p.expansion_id, 'product_type_id', p.product_type_id,
    'sat_product_key', p.sat_product_key, 'sat_unit_key', p.sat_unit_key
  ) into v_product;
  return jsonb_build_object('saved', true, 'stock', p_stock, 'product', v_product);
end
$$;

revoke execute on function public.admin_save_product(text, integer, integer, numeric, numeric, integer, boolean, boolean, date, timestamptz, text, text[], text, text) from public, anon;
grant execute on function public.admin_save_product(text, integer, integer, numeric, numeric, integer, boolean, boolean, date, timestamptz, text, text[], text, text) to authenticated;
