-- The storage takes only the images the admin's forms take (src/domain/image-upload.ts): PNG,
-- JPG, WebP, SVG or GIF of at most 5 MB, so a file sent around the forms is refused as well.
update storage.buckets
set allowed_mime_types = array['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'image/gif'],
    file_size_limit = 5242880
where id = 'products';
