-- What changed in the catalogue since a given time, read cheaply.
--
-- The server's /explore catalogue keeps its stock live between rebuilds
-- (src/server/explore/catalogue.ts): every couple of seconds each server process asks for the
-- products and the card offers whose updated_at is after the last change it read, oldest first,
-- and pages through them by (updated_at, id). Without an index that is a scan of every product
-- and every offer (100,000 products and more) per process and poll; with these it is an index
-- range scan that reads only the rows that changed.

create index products_updated_at_idx on public.products (updated_at, id);
create index card_offers_updated_at_idx on public.card_offers (updated_at, id);
