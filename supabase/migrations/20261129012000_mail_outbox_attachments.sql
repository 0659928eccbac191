-- An e-mail of the outbox may carry attachments. The row stores what to attach, never the files:
-- each element names where the sender fetches the file at send time, e.g. a factura's PDF or XML
-- from the invoicing provider ({"source": "invoice", "invoice_id": "…", "format": "pdf",
-- "filename": "factura-ABC123.pdf"}). A file that cannot be fetched fails the attempt, and the
-- e-mail is retried like any other failed send.
alter table public.mail_outbox
  add column attachments jsonb not null default '[]'::jsonb
    constraint mail_outbox_attachments_array check (jsonb_typeof(attachments) = 'array' and jsonb_array_length(attachments) <= 10);

comment on column public.mail_outbox.attachments is
  'What to attach, fetched at send time (never the files): [{source, invoice_id, format, filename}].';
