import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/data/database.types.ts';
import { sendAlertMail } from '~/server/alerts/mail.ts';
import type { QueuedMail } from '~/server/mail/types.ts';

const TOKEN = 'f'.repeat(64);

function fakeAdmin(due: unknown[]) {
  const marked: unknown[] = [];
  const admin = {
    rpc: async () => ({ data: due, error: null }),
    from: (table: string) => ({
      update: (values: unknown) => ({
        in: async (column: string, ids: unknown[]) => {
          marked.push({ table, values, column, ids });
          return { error: null };
        },
      }),
    }),
  } as unknown as SupabaseClient<Database>;
  return { admin, marked };
}

describe('alert e-mails into the outbox', () => {
  it('queues one e-mail per queued alert under its own dedupe key, then marks them mailed (and sets aside what cannot be one)', async () => {
    const { admin, marked } = fakeAdmin([
      {
        id: 7,
        kind: 'restock',
        email: 'a@correo.mx',
        product_id: 'caja',
        product_name: 'Caja',
        offer_label: null,
        units: 2,
        old_price: null,
        new_price: null,
        cancel_token: TOKEN,
      },
      {
        id: 8,
        kind: 'price_drop',
        email: 'b@correo.mx',
        product_id: 'etb',
        product_name: 'ETB',
        offer_label: 'NM · Español · Holo',
        units: null,
        old_price: '1000.00',
        new_price: '900.00',
        cancel_token: null,
      },
      // A restock without its token can never make the e-mail: set aside, not left at the head of the queue.
      {
        id: 9,
        kind: 'restock',
        email: 'c@correo.mx',
        product_id: 'x',
        product_name: 'X',
        offer_label: null,
        units: 1,
        old_price: null,
        new_price: null,
        cancel_token: null,
      },
    ]);
    const sent: QueuedMail[] = [];
    const report = await sendAlertMail({ admin, mail: async (mail) => void sent.push(mail), siteUrl: 'https://tienda.mx' });
    expect(report).toEqual({ queued: 2, skipped: 1 });
    expect(sent.map((mail) => [mail.to, mail.kind, mail.dedupeKey, mail.subject])).toEqual([
      ['a@correo.mx', 'restock_alert', 'alert:7', 'Ya llegó: Caja'],
      ['b@correo.mx', 'price_drop', 'alert:8', 'Bajó de precio: ETB (NM · Español · Holo)'],
    ]);
    expect(sent[0]!.text).toContain(`/avisos/cancelar?t=${TOKEN}`);
    expect(sent[1]!.text).toContain('$1,000.00 a $900.00');
    expect(marked).toEqual([{ table: 'alert_mail_queue', values: { mailed_at: expect.any(String) }, column: 'id', ids: [9, 7, 8] }]);
  });
});
