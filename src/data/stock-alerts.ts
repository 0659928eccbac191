/**
 * Restock alerts ('Avísame cuando llegue'), price alerts on favorites and the shopper's
 * notification settings, through supabase-js with the shopper's own session. Row-level security
 * keeps each shopper to their own rows; the database decides whether a product is sold out (an
 * alert on something in stock is refused) and cancels alerts through cancel_stock_alert.
 */
import { CARD_CONDITIONS, GRADING_COMPANIES, offerKey, offerLabel, type CardCondition, type GradingCompany } from '~/domain/singles.ts';
import { getSupabase } from './supabase.ts';
import type { DataResult } from './profiles.ts';

/** Postgres' unique violation: the shopper already waits for it. */
const ALREADY_THERE = '23505';

/** What asking for an alert did. */
export type AskOutcome = 'added' | 'in-stock' | 'failed';

/** Asks to be told when the product (or one of its offers) comes back; already asked is fine. */
export async function askRestockAlert(productId: string, offerId: string | null): Promise<AskOutcome> {
  const { error } = await getSupabase().from('stock_alerts').insert({ product_id: productId, offer_id: offerId });
  if (!error || error.code === ALREADY_THERE) return 'added';
  if (error.details === 'in_stock') return 'in-stock';
  console.error('stock_alerts: insert refused', error.code, error.message);
  return 'failed';
}

/** The shopper's alert on the product (or offer), if one stands (told of a restock or not, until cancelled). */
export async function waitingAlert(userId: string, productId: string, offerId: string | null): Promise<DataResult<string | null>> {
  let query = getSupabase().from('stock_alerts').select('id').eq('user_id', userId).eq('product_id', productId).is('cancelled_at', null);
  query = offerId ? query.eq('offer_id', offerId) : query.is('offer_id', null);
  const { data, error } = await query.limit(1);
  if (error) return { data: null, error };
  return { data: data?.[0]?.id ?? null, error: null };
}

/** Cancels one of the shopper's waiting alerts. */
export async function cancelRestockAlert(alertId: string): Promise<DataResult<true>> {
  const { error } = await getSupabase().rpc('cancel_stock_alert', { p_alert_id: alertId });
  if (error) return { data: null, error };
  return { data: true, error: null };
}

/** An offer row as the alerts read it, to name it and to find it by its key. */
interface OfferRow {
  id?: unknown;
  condition?: unknown;
  language?: unknown;
  finish?: unknown;
  grading_company?: unknown;
  grade?: unknown;
  certificate_number?: unknown;
}

function offerOf(row: OfferRow) {
  const grade = typeof row.grade === 'number' ? row.grade : typeof row.grade === 'string' && row.grade.trim() !== '' ? Number(row.grade) : null;
  return {
    condition: CARD_CONDITIONS.includes(row.condition as CardCondition) ? (row.condition as CardCondition) : null,
    language: typeof row.language === 'string' ? row.language : '',
    finish: typeof row.finish === 'string' ? row.finish : '',
    gradingCompany: GRADING_COMPANIES.includes(row.grading_company as GradingCompany) ? (row.grading_company as GradingCompany) : null,
    grade: grade !== null && Number.isFinite(grade) ? grade : null,
    certificateNumber: typeof row.certificate_number === 'string' ? row.certificate_number : null,
  };
}

/** The id of the product's offer whose key (`?oferta=`, offerKey) is `key`; null when there is none. */
export async function offerIdByKey(productId: string, key: string): Promise<string | null> {
  const { data, error } = await getSupabase()
    .from('card_offers')
    .select('id, condition, language, finish, grading_company, grade, certificate_number')
    .eq('product_id', productId);
  if (error) throw new Error(error.message);
  const match = (data ?? []).find((row) => offerKey(offerOf(row)) === key);
  return match ? match.id : null;
}

/** A waiting alert as Configuración lists it. */
export interface WaitingAlert {
  id: string;
  productId: string;
  name: string;
  /** The offer's label, or null for the product as a whole. */
  offerLabel: string | null;
  createdAt: string;
}

/** The shopper's alerts that stand (until cancelled), newest first. */
export async function listWaitingAlerts(userId: string): Promise<DataResult<WaitingAlert[]>> {
  const { data, error } = await getSupabase()
    .from('stock_alerts')
    .select('id, product_id, created_at, products(name), card_offers(condition, language, finish, grading_company, grade)')
    .eq('user_id', userId)
    .is('cancelled_at', null)
    .order('created_at', { ascending: false });
  if (error) return { data: null, error };
  const rows = (data ?? []) as unknown as Array<Record<string, unknown>>;
  return {
    data: rows.map((row) => {
      const product = row.products as { name?: unknown } | null;
      const offer = row.card_offers as OfferRow | null;
      return {
        id: String(row.id),
        productId: String(row.product_id),
        name: typeof product?.name === 'string' ? product.name : String(row.product_id),
        offerLabel: offer ? offerLabel(offerOf(offer)) : null,
        createdAt: String(row.created_at),
      };
    }),
    error: null,
  };
}

/** The e-mails the shopper wants; every one is on until they turn it off. */
export interface NotificationSettings {
  restockAlerts: boolean;
  priceAlerts: boolean;
  preorderEmails: boolean;
  newsletter: boolean;
}

/** The shopper's settings, with whether their address is on the newsletter. */
export async function loadNotificationSettings(userId: string): Promise<DataResult<NotificationSettings>> {
  const supabase = getSupabase();
  const [settings, newsletter] = await Promise.all([
    supabase.from('notification_settings').select('restock_alerts, price_alerts, preorder_emails').eq('user_id', userId).maybeSingle(),
    supabase.rpc('my_newsletter_subscribed'),
  ]);
  if (settings.error) return { data: null, error: settings.error };
  if (newsletter.error) return { data: null, error: newsletter.error };
  return {
    data: {
      restockAlerts: settings.data?.restock_alerts ?? true,
      priceAlerts: settings.data?.price_alerts ?? true,
      preorderEmails: settings.data?.preorder_emails ?? true,
      newsletter: newsletter.data === true,
    },
    error: null,
  };
}

/** Saves one setting of the shopper (the newsletter puts their own address on the list or takes it off). */
export async function saveNotificationSetting(userId: string, key: keyof NotificationSettings, on: boolean): Promise<DataResult<true>> {
  const supabase = getSupabase();
  if (key === 'newsletter') {
    const { error } = await supabase.rpc('set_my_newsletter', { p_subscribed: on });
    return error ? { data: null, error } : { data: true, error: null };
  }
  const column = ({ restockAlerts: 'restock_alerts', priceAlerts: 'price_alerts', preorderEmails: 'preorder_emails' } as const)[key];
  const values = { [column]: on } as { restock_alerts?: boolean; price_alerts?: boolean; preorder_emails?: boolean };
  const changed = await supabase.from('notification_settings').update(values).eq('user_id', userId).select('user_id');
  if (changed.error) return { data: null, error: changed.error };
  if (changed.data.length > 0) return { data: true, error: null };
  // No settings saved yet: the row is created (its user is the signed-in shopper).
  const created = await supabase.from('notification_settings').insert(values);
  if (created.error?.code === ALREADY_THERE) return saveNotificationSetting(userId, key, on);
  return created.error ? { data: null, error: created.error } : { data: true, error: null };
}

/** Which of the shopper's favorites have 'Avísame si baja de precio' on. */
export async function priceAlertFavorites(userId: string): Promise<DataResult<ReadonlySet<string>>> {
  const { data, error } = await getSupabase().from('favorites').select('id').eq('user_id', userId).eq('price_alert', true);
  if (error) return { data: null, error };
  return { data: new Set((data ?? []).map((row) => row.id)), error: null };
}

/** Turns a favorite's price alert on (the database remembers today's price) or off. */
export async function setPriceAlert(favoriteId: string, on: boolean): Promise<DataResult<true>> {
  const { data, error } = await getSupabase().from('favorites').update({ price_alert: on }).eq('id', favoriteId).select('id');
  if (error) return { data: null, error };
  if (!data || data.length === 0) return { data: null, error: new Error('favorite not found') };
  return { data: true, error: null };
}

/** One line of the back office's demand: a product (or offer) and how many shoppers wait for it. */
export interface DemandLine {
  productId: string;
  name: string;
  offerLabel: string | null;
  waiting: number;
  oldest: string;
  stock: number;
  available: boolean;
}

/** The back office's demand, most wanted first (admin_stock_demand refuses anyone but an admin). */
export async function loadStockDemand(): Promise<DataResult<DemandLine[]>> {
  const { data, error } = await getSupabase().rpc('admin_stock_demand');
  if (error) return { data: null, error };
  return {
    data: (data ?? []).map((row) => ({
      productId: row.product_id ?? '',
      name: row.product_name ?? row.product_id ?? '',
      offerLabel: row.offer_label,
      waiting: Number(row.waiting ?? 0),
      oldest: row.oldest ?? '',
      stock: row.stock ?? 0,
      available: row.available !== false,
    })),
    error: null,
  };
}
