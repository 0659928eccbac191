-- A card shop photographs its slabs and singles with a phone (3,000 × 4,000 px, 2–5 MB, more in
-- good light): the products bucket takes originals up to 15 MB, the same limit as the back
-- office's check (src/domain/image-upload.ts) and the copies' maker (src/domain/image-variants.ts).
update storage.buckets
set file_size_limit = 15728640
where id = 'products';
