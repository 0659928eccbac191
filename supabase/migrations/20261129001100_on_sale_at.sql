-- Timed drops: a product may go on sale at a set time (`on_sale_at`; null = on sale now). Before
-- that instant the database refuses to sell it, whatever the shopper's clock says: a line of the
-- product (or of one of its offers) cannot be written into an order. create_order writes its lines
-- through this check, so an early order fails whole, as a refused line ('unavailable:<id>', the
-- kind the checkout already shows beside the line).
alter table public.products add column on_sale_at timestamptz;
comment on column public.products.on_sale_at is 'When the product goes on sale (a timed drop); null: on sale now.';

create function public.order_items_on_sale() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_name text;
  v_on_sale_at timestamptz;
begin
  select p.name, p.on_sale_at into v_name, v_on_sale_at from public.products p where p.id = new.product_id;
  if v_on_sale_at is not null and v_on_sale_at > now() then
    raise exception '«%» aún no está a la venta: sale el % (hora del centro de México).',
      v_name, to_char(v_on_sale_at at time zone 'America/Mexico_City', 'DD/MM/YYYY "a las" HH24:MI')
      using errcode = 'P0001', detail = 'unavailable:' || new.product_id, hint = v_on_sale_at::text;
  end if;
  return new;
end;
$$;
create trigger order_items_on_sale before insert on public.order_items
  for each row execute function public.order_items_on_sale();
