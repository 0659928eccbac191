-- Storage buckets for catalogue images. Everyone reads public buckets; only admins upload,
-- replace or delete catalogue images.

insert into storage.buckets (id, name, public)
values
  ('products', 'products', true),
  ('expansions', 'expansions', true),
  ('product-types', 'product-types', true),
  ('franchises', 'franchises', true)
on conflict (id) do nothing;

create policy "Shop images: public read" on storage.objects
  for select to anon, authenticated
  using (bucket_id in ('products', 'expansions', 'product-types', 'franchises'));

create policy "Shop images: admins upload" on storage.objects
  for insert to authenticated
  with check (
    bucket_id in ('products', 'expansions', 'product-types', 'franchises')
    and (select public.is_admin())
  );

create policy "Shop images: admins update" on storage.objects
  for update to authenticated
  using (
    bucket_id in ('products', 'expansions', 'product-types', 'franchises')
    and (select public.is_admin())
  )
  with check (
    bucket_id in ('products', 'expansions', 'product-types', 'franchises')
    and (select public.is_admin())
  );

create policy "Shop images: admins delete" on storage.objects
  for delete to authenticated
  using (
    bucket_id in ('products', 'expansions', 'product-types', 'franchises')
    and (select public.is_admin())
  );
