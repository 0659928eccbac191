/**
 * The back office's promotions from the browser, as the admin: the list with each promotion's uses,
 * discount given and sales (admin_promotions), saving one (admin_save_promotion: create when no id,
 * edit otherwise) and pausing or resuming it (admin_set_promotion_active). The database checks
 * is_admin, validates every field and records every change in promotion_events.
 */
import { getSupabase } from '../supabase.ts';
import { type Centavos, toCentavos } from '~/domain/money.ts';

export type PromotionType = 'percent' | 'fixed' | 'shipping';

/** One promotion as the back office lists it; amounts in centavos, the percent as a whole number. */
export interface AdminPromotion {
  id: string;
  code: string;
  description: string;
  type: PromotionType;
  /** Whole percent for 'percent'; 0 otherwise (the fixed amount is valueCentavos). */
  percent: number;
  valueCentavos: Centavos;
  minSubtotalCentavos: Centavos;
  startsAt: string | null;
  endsAt: string | null;
  maxUses: number | null;
  maxUsesPerCustomer: number | null;
  firstPurchaseOnly: boolean;
  franchiseIds: string[];
  expansionIds: string[];
  productTypeIds: string[];
  productIds: string[];
  active: boolean;
  uses: number;
  discountGivenCentavos: Centavos;
  shippingWaivedCentavos: Centavos;
  salesCentavos: Centavos;
}

const TYPES: readonly PromotionType[] = ['percent', 'fixed', 'shipping'];

/** Every promotion, active first; null when it could not be read. */
export async function loadPromotions(): Promise<AdminPromotion[] | null> {
  const { data, error } = await getSupabase().rpc('admin_promotions');
  if (error || !data) return null;
  return data.map((row) => {
    const type = TYPES.find((t) => t === row.type) ?? 'percent';
    return {
      id: row.id ?? '',
      code: row.code ?? '',
      description: row.description ?? '',
      type,
      percent: type === 'percent' ? Number(row.value ?? 0) : 0,
      valueCentavos: type === 'fixed' ? toCentavos(row.value ?? 0) : toCentavos(0),
      minSubtotalCentavos: toCentavos(row.min_subtotal ?? 0),
      startsAt: row.starts_at ?? null,
      endsAt: row.ends_at ?? null,
      maxUses: row.max_uses ?? null,
      maxUsesPerCustomer: row.max_uses_per_customer ?? null,
      firstPurchaseOnly: row.first_purchase_only ?? false,
      franchiseIds: row.franchise_ids ?? [],
      expansionIds: row.expansion_ids ?? [],
      productTypeIds: row.product_type_ids ?? [],
      productIds: row.product_ids ?? [],
      active: row.active ?? false,
      uses: row.uses ?? 0,
      discountGivenCentavos: toCentavos(row.discount_given ?? 0),
      shippingWaivedCentavos: toCentavos(row.shipping_waived ?? 0),
      salesCentavos: toCentavos(row.sales ?? 0),
    };
  });
}

/**
 * A promotion as the form sends it: the value and minimum as typed in pesos ('150', '99.90'), the
 * instants as ISO strings, limits null for none, scope ids (empty: no restriction).
 */
export interface PromotionInput {
  code: string;
  description: string;
  type: PromotionType;
  value: string;
  minSubtotal: string;
  startsAt: string | null;
  endsAt: string | null;
  maxUses: number | null;
  maxUsesPerCustomer: number | null;
  firstPurchaseOnly: boolean;
  franchiseIds: string[];
  expansionIds: string[];
  productTypeIds: string[];
  productIds: string[];
  active: boolean;
}

type Saved = { ok: true; id: string } | { ok: false; message: string | null };

/** The database's Spanish refusal, or null for anything else (the screen says it failed). */
function refusal(error: { code?: string; message: string }): string | null {
  return error.code === 'P0001' || error.code === '42501' ? error.message : null;
}

/** Creates (id null) or edits a promotion. */
export async function savePromotion(id: string | null, input: PromotionInput): Promise<Saved> {
  const { data, error } = await getSupabase().rpc('admin_save_promotion', {
    p_id: id as string,
    p_fields: {
      code: input.code,
      description: input.description,
      type: input.type,
      value: input.value,
      min_subtotal: input.minSubtotal,
      starts_at: input.startsAt,
      ends_at: input.endsAt,
      max_uses: input.maxUses,
      max_uses_per_customer: input.maxUsesPerCustomer,
      first_purchase_only: input.firstPurchaseOnly,
      franchise_ids: input.franchiseIds,
      expansion_ids: input.expansionIds,
      product_type_ids: input.productTypeIds,
      product_ids: input.productIds,
      active: input.active,
    },
  });
  if (error || typeof data !== 'string') return { ok: false, message: error ? refusal(error) : null };
  return { ok: true, id: data };
}

/** Pauses (false) or resumes (true) a promotion. */
export async function setPromotionActive(id: string, active: boolean): Promise<{ ok: true } | { ok: false; message: string | null }> {
  const { error } = await getSupabase().rpc('admin_set_promotion_active', { p_id: id, p_active: active });
  return error ? { ok: false, message: refusal(error) } : { ok: true };
}
