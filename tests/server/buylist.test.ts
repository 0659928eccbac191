/**
 * The buylist through supabase-js on the local stack, as the screens call it (docs/buylist.md):
 * anyone finds OP05-119 in the published buylist with its prices; the demo shopper submits 2 LP
 * copies for saldo a favor; the admin receives them, downgrades one to MP and sends the offer; the
 * shopper accepts, the balance grows by exactly the adjusted offer with bonus and the copies are
 * in stock; the shopper's e-mails are in the outbox; a refusal comes back with its message,
 * details and hint.
 */
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';
import { anonClient, signIn } from '../support/shopper.ts';

const LUFFY = 'op-single-op-05-monkey-d-luffy-op05-119';

let stack: TestStack;
let service: SupabaseClient;
let shopper: SupabaseClient;
let admin: SupabaseClient;

/** The data of an rpc, or a failed test with its error. */
async function rpc<T = Record<string, unknown>>(client: SupabaseClient, fn: string, args: Record<string, unknown>): Promise<T> {
  const { data, error } = await client.rpc(fn, args);
  if (error) throw new Error(`${fn}: ${error.message} (${error.details})`);
  return data as T;
}

async function balance(): Promise<number> {
  const { data } = await service.from('store_credit_accounts').select('balance').eq('user_id', DEMO_SHOPPER.id).maybeSingle();
  return Number(data?.balance ?? 0);
}

async function offerStock(condition: string): Promise<number | null> {
  const { data } = await service
    .from('card_offers')
    .select('stock')
    .eq('product_id', LUFFY)
    .eq('condition', condition)
    .eq('language', 'en')
    .eq('finish', 'parallel')
    .maybeSingle();
  return data ? Number(data.stock) : null;
}

beforeAll(async () => {
  stack = await startTestStack();
  service = createClient(stack.url, stack.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
  ({ client: shopper } = await signIn(stack, DEMO_SHOPPER));
  ({ client: admin } = await signIn(stack, DEMO_ADMIN));
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the buylist through the API', () => {
  it('anyone finds OP05-119 in the published buylist with its prices per condition', async () => {
    const { data, error } = await anonClient(stack).from('buylist_items').select('*').eq('collector_key', 'op05119');
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
    expect(data![0]).toMatchObject({ product_id: LUFFY, cash_lp: 1920, credit_lp: 2400, cash_mp: 1440, credit_mp: 1800, still_wanted: 8 });
    const { count } = await anonClient(stack).from('buylist_items').select('entry_id', { count: 'exact', head: true });
    expect(count).toBeGreaterThanOrEqual(50);
  });

  it('2 LP copies for saldo, one downgraded to MP: the balance grows by the adjusted offer with bonus and the copies are in stock', async () => {
    const had = await balance();
    const lpBefore = await offerStock('LP');
    const mpBefore = (await offerStock('MP')) ?? 0;
    const saved = await shopper
      .from('buylist_sell_list_items')
      .upsert(
        { product_id: LUFFY, condition: 'LP', language: 'en', finish: 'parallel', quantity: 2 },
        { onConflict: 'user_id,product_id,condition,language,finish' },
      );
    expect(saved.error).toBeNull();

    const sent = await rpc<{ id: string; code: string; totalCredit: number }>(shopper, 'submit_buylist', {
      p_request_id: randomUUID(),
      p_lines: [{ productId: LUFFY, condition: 'LP', language: 'en', finish: 'parallel', quantity: 2 }],
      p_payout: 'saldo',
    });
    expect(sent).toMatchObject({ totalCredit: 4800 });
    expect(sent.code).toMatch(/^V-\d{6}$/);
    expect((await shopper.from('buylist_sell_list_items').select('id')).data).toEqual([]);

    const listed = await rpc<Array<{ id: string; customer_email: string }>>(admin, 'admin_buylist_submissions', { p_search: sent.code });
    expect(listed).toEqual([expect.objectContaining({ id: sent.id, customer_email: DEMO_SHOPPER.email })]);
    await rpc(admin, 'admin_buylist_receive', { p_submission: sent.id });
    const { data: lines } = await admin.from('buylist_submission_lines').select('id').eq('submission_id', sent.id);
    const split = await rpc<{ lineId: string }>(admin, 'admin_buylist_split_line', { p_line: lines![0]!.id, p_quantity: 1 });
    await rpc(admin, 'admin_buylist_review_line', { p_line: split.lineId, p_condition: 'MP' });
    expect(await rpc(admin, 'admin_buylist_send_offer', { p_submission: sent.id })).toMatchObject({ status: 'oferta_ajustada', offerCredit: 4200 });

    const { data: mine } = await shopper.from('buylist_submissions').select('status, offer_credit').eq('id', sent.id).single();
    expect(mine).toEqual({ status: 'oferta_ajustada', offer_credit: 4200 });
    expect(await rpc(shopper, 'accept_buylist_offer', { p_submission: sent.id })).toMatchObject({ status: 'pagada' });
    expect((await balance()) - had).toBe(420000);
    expect(await offerStock('LP')).toBe(lpBefore! + 1);
    expect(await offerStock('MP')).toBe(mpBefore + 1);
    const { data: payout } = await shopper.from('buylist_payouts').select('method, amount, status').eq('submission_id', sent.id).single();
    expect(payout).toEqual({ method: 'saldo', amount: 4200, status: 'pagado' });

    const { data: mail } = await service.from('mail_outbox').select('kind, to_address').like('dedupe_key', `buylist:%:${sent.id}`).order('created_at');
    expect(new Set(mail!.map((m) => m.kind))).toEqual(new Set(['buylist_submitted', 'buylist_received', 'buylist_offer', 'buylist_paid']));
    expect(mail!.every((m) => m.to_address === DEMO_SHOPPER.email)).toBe(true);
  });

  it('a refusal carries its Spanish message, details and hint', async () => {
    const { error } = await shopper.rpc('submit_buylist', {
      p_request_id: randomUUID(),
      p_lines: [{ productId: LUFFY, condition: 'LP', language: 'en', finish: 'parallel', quantity: 9 }],
      p_payout: 'saldo',
    });
    expect(error).toMatchObject({ message: 'La tienda ya no compra más de esta carta', details: `not_wanted:${LUFFY}`, hint: '6' });
  });
});
