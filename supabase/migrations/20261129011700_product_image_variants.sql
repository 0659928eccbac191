-- The copies the shop makes of an uploaded photo (src/server/admin/media-variants.ts) include AVIF:
-- the products bucket takes image/avif as well. The back office's forms still upload only the
-- types of src/domain/image-upload.ts (20261129000900_product_image_upload_rule.sql), at most 5 MB.
update storage.buckets
set allowed_mime_types = array['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'image/gif', 'image/avif']
where id = 'products';
