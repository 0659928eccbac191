-- The demo's photos (scripts/seed/photos.ts writes them, with their copies, into the storage seed):
-- every single shows a photo as a shop takes it with a phone, and every slab a front and a back of
-- its own, never the card's photo. The photos are chosen from the product's id (4 photos,
-- demo-foto-1 … demo-foto-4), so every start of a catalogue of any size, the benchmark's
-- included, shows the same photos on the same page. Their names record their upright size
-- (1500x2100), as an upload's do once its copies are made, so the pages ask for the copies.
update public.products p
   set image = 'products/demo-foto-' || (1 + abs(hashtext(p.id)) % 4) || '.1500x2100.jpg',
       images = array['products/demo-foto-' || (1 + abs(hashtext(p.id)) % 4) || '.1500x2100.jpg']
 where p.product_type_id in ('single-card', 'op-single-card', 'rb-single-card');

update public.card_offers o
   set images = array[
         'products/demo-foto-' || (1 + (abs(hashtext(o.product_id)) + 1) % 4) || '.1500x2100.jpg',
         'products/demo-foto-' || (1 + (abs(hashtext(o.product_id)) + 2) % 4) || '.1500x2100.jpg'
       ]
 where o.grading_company is not null;
