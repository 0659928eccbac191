-- Stock edits of a single's offers in the back office never sell a unit twice.
--
--   admin_set_offer_stock  the offers grid's stock save: the offer's stock is written only when it
--                          is still the stock the grid read (compare and set). Shoppers reserve
--                          units of an offer meanwhile (create_order takes them off
--                          card_offers.stock); writing back the stock read when the grid opened
--                          would put those units on sale again. When the stock moved, nothing is
--                          written and the answer carries the current stock, so the admin can
--                          review and save again. Admins only.
--
-- The other columns of an offer (price, condition, slab fields, photos) are written by admins
-- directly under row-level security (20261126000200_card_printings_offers.sql); only the stock
-- needs this guard.
--
-- The product row's own price and stock are left as they are: create_order sells a product and
-- its offers from separate stocks (a line without an offer takes products.stock, a line with one
-- takes card_offers.stock), so deriving products.stock from the offers would count the same units
-- twice, and a trigger writing products from card_offers would lock a product after its offer,
-- the opposite order of create_order's locks. Pages and the back office read a single's prices and
-- stock from its offers.

/**
 * Sets an offer's stock from the back office. p_stock_read is the stock the grid showed, p_stock
 * the stock wanted. The row is locked (the lock create_order takes before it reserves); when its
 * stock is no longer p_stock_read nothing is written and the answer is
 * {"saved": false, "stock": <current stock>}; otherwise {"saved": true, "stock": <new stock>}.
 */
create or replace function public.admin_set_offer_stock(
  p_offer_id uuid,
  p_stock_read integer,
  p_stock integer
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_current integer;
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede editar ofertas.' using errcode = '42501', detail = 'not_admin';
  end if;
  if p_stock_read is null or p_stock is null then
    raise exception 'Falta el stock de la oferta.' using errcode = 'P0001', detail = 'stock_required';
  end if;
  if p_stock < 0 then
    raise exception 'El stock no puede ser negativo.' using errcode = '23514', detail = 'stock_negative';
  end if;

  select c.stock into v_current from public.card_offers c where c.id = p_offer_id for update;
  if not found then
    raise exception 'Oferta no encontrada.' using errcode = 'P0001', detail = 'offer_not_found';
  end if;
  if v_current <> p_stock_read then
    return jsonb_build_object('saved', false, 'stock', v_current);
  end if;

  update public.card_offers c set stock = p_stock where c.id = p_offer_id;
  return jsonb_build_object('saved', true, 'stock', p_stock);
end
$$;

revoke execute on function public.admin_set_offer_stock(uuid, integer, integer) from public, anon;
grant execute on function public.admin_set_offer_stock(uuid, integer, integer) to authenticated;
