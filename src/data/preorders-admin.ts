/**
 * The back office's preorder campaigns from the browser: the list with its numbers and saving a
 * campaign go to the database as the admin (admin_preorder_campaigns, admin_save_preorder_campaign:
 * the database checks is_admin); 'Registrar llegada' goes to the shop's endpoint, which refunds
 * and e-mails after the database allocates.
 */
import * as z from 'zod/mini';
import { safeCallApi, type ApiAnswer } from './api.ts';
import { getSupabase } from './supabase.ts';

/** One campaign as the back office lists it. */
export interface AdminPreorderCampaign {
  id: string;
  productId: string;
  productName: string;
  offerId: string | null;
  releaseDate: string;
  opensAt: string;
  closesAt: string;
  allocation: number;
  perCustomerLimit: number;
  perOrderLimit: number;
  orders: number;
  units: number;
  allocated: number;
  waitlisted: number;
  refunded: number;
  received: number;
}

/** Every campaign, soonest release first; null when it could not be read. */
export async function loadPreorderCampaigns(): Promise<AdminPreorderCampaign[] | null> {
  const { data, error } = await getSupabase().rpc('admin_preorder_campaigns');
  if (error || !data) return null;
  return data.map((row) => ({
    id: row.id ?? '',
    productId: row.product_id ?? '',
    productName: row.product_name ?? '',
    offerId: row.offer_id ?? null,
    releaseDate: row.release_date ?? '',
    opensAt: row.opens_at ?? '',
    closesAt: row.closes_at ?? '',
    allocation: row.allocation ?? 0,
    perCustomerLimit: row.per_customer_limit ?? 0,
    perOrderLimit: row.per_order_limit ?? 0,
    orders: row.orders ?? 0,
    units: row.units ?? 0,
    allocated: row.allocated ?? 0,
    waitlisted: row.waitlisted ?? 0,
    refunded: row.refunded ?? 0,
    received: row.received ?? 0,
  }));
}

/** A campaign as the form sends it; the instants are ISO strings. */
export interface PreorderCampaignInput {
  productId: string;
  offerId: string | null;
  releaseDate: string;
  opensAt: string;
  closesAt: string;
  allocation: number;
  perCustomerLimit: number;
  perOrderLimit: number;
}

/** Saves (creates or edits) a campaign; the database's Spanish refusal when it refuses. */
export async function savePreorderCampaign(input: PreorderCampaignInput): Promise<{ ok: true } | { ok: false; message: string | null }> {
  const { error } = await getSupabase().rpc('admin_save_preorder_campaign', {
    p_product_id: input.productId,
    p_offer_id: input.offerId as string,
    p_release_date: input.releaseDate,
    p_opens_at: input.opensAt,
    p_closes_at: input.closesAt,
    p_allocation: input.allocation,
    p_per_customer_limit: input.perCustomerLimit,
    p_per_order_limit: input.perOrderLimit,
  });
  if (error) return { ok: false, message: error.code === 'P0001' || error.code === '42501' ? error.message : null };
  return { ok: true };
}

const arrivalAnswer = z.object({
  arrivalId: z.string(),
  replayed: z.boolean(),
  received: z.number(),
  allocatedUnits: z.number(),
  toStock: z.number(),
  orders: z.object({ allocated: z.number(), waitlisted: z.number(), refunded: z.number() }),
  refunds: z.object({ succeeded: z.number(), processing: z.number(), failed: z.number() }),
});
type PreorderArrival = z.infer<typeof arrivalAnswer>;

/** 'Registrar llegada': `key` is the same for every click of one arrival (a double click allocates once). */
export function registerPreorderArrival(campaignId: string, quantity: number, key: string): Promise<ApiAnswer<PreorderArrival>> {
  return safeCallApi(`/api/admin/preorders/${encodeURIComponent(campaignId)}/arrival`, { method: 'POST', body: { quantity, key }, schema: arrivalAnswer });
}
