/**
 * 'Vende tus cartas' from the browser: the published buylist (the view `buylist_items`, anyone),
 * its settings, the signed-in shopper's sell list (`buylist_sell_list_items`, their own rows),
 * submitting it (`submit_buylist`: the database prices, reserves and refuses), and the shopper's
 * submissions for 'Mis ventas' and the packing slip, with accepting the adjusted offer or asking
 * for the cards back. Prices arrive in pesos and become centavos here, once.
 */
import { toCentavos, type Centavos } from '~/domain/money.ts';
import { CARD_CONDITIONS, type CardCondition } from '~/domain/singles.ts';
import type { FranchiseId } from '~/domain/catalog.ts';
import type { Database, Json, Tables } from './database.types.ts';
import { getSupabase } from './supabase.ts';

/** One price per condition. */
export type ConditionPrices = Record<CardCondition, Centavos>;

/** A card the shop buys, with what it pays for each condition and how many it still wants. */
export interface BuylistItem {
  entryId: string;
  productId: string;
  name: string;
  nameEn: string | null;
  nameEs: string | null;
  franchiseId: FranchiseId;
  expansion: string;
  collectorNumber: string;
  rarity: string;
  image: string | null;
  /** null: any language (or finish). */
  language: string | null;
  finish: string | null;
  cash: ConditionPrices;
  credit: ConditionPrices;
  stillWanted: number;
  limitPerShopper: number;
}

/** The rules the shopper sees: the saldo bonus, the minimum, the days to send the cards. */
export interface BuylistTerms {
  bonusPercent: number;
  shares: Record<CardCondition, number>;
  defaultPercent: number | null;
  minimum: Centavos;
  reservationDays: number;
  defaultLimit: number;
}

type ItemRow = Database['public']['Views']['buylist_items']['Row'];

const LOWER: Record<CardCondition, 'nm' | 'lp' | 'mp' | 'hp' | 'dmg'> = { NM: 'nm', LP: 'lp', MP: 'mp', HP: 'hp', DMG: 'dmg' };

function prices(row: ItemRow, kind: 'cash' | 'credit'): ConditionPrices {
  const out = {} as ConditionPrices;
  for (const condition of CARD_CONDITIONS) out[condition] = toCentavos(row[`${kind}_${LOWER[condition]}`] ?? 0);
  return out;
}

/** A row of the view as the screens use it. */
export function toBuylistItem(row: ItemRow): BuylistItem {
  return {
    entryId: row.entry_id ?? '',
    productId: row.product_id ?? '',
    name: row.name ?? '',
    nameEn: row.name_en,
    nameEs: row.name_es,
    franchiseId: (row.franchise_id ?? 'pokemon') as FranchiseId,
    expansion: row.expansion ?? '',
    collectorNumber: row.collector_number ?? '',
    rarity: row.rarity ?? '',
    image: row.image,
    language: row.language,
    finish: row.finish,
    cash: prices(row, 'cash'),
    credit: prices(row, 'credit'),
    stillWanted: row.still_wanted ?? 0,
    limitPerShopper: row.limit_per_shopper ?? 0,
  };
}

/** The whole published buylist (a few hundred cards at most): searched in the browser; null when it could not be read. */
export async function loadBuylist(): Promise<BuylistItem[] | null> {
  const { data, error } = await getSupabase().from('buylist_items').select('*').order('name').limit(5000);
  if (error || !data) return null;
  return data.map(toBuylistItem);
}

/** The buylist's settings as everyone reads them; null when they could not be read. */
export async function loadBuylistTerms(): Promise<BuylistTerms | null> {
  const { data, error } = await getSupabase().from('buylist_settings').select('*').maybeSingle();
  if (error || !data) return null;
  return {
    bonusPercent: Number(data.credit_bonus_percent),
    shares: { NM: 100, LP: Number(data.share_lp), MP: Number(data.share_mp), HP: Number(data.share_hp), DMG: Number(data.share_dmg) },
    defaultPercent: data.default_percent === null ? null : Number(data.default_percent),
    minimum: toCentavos(data.min_submission),
    reservationDays: data.reservation_days,
    defaultLimit: data.default_limit_per_shopper,
  };
}

/** Copies on the sell list: a card, its condition, language and finish, how many. */
export interface SellCopies {
  productId: string;
  condition: CardCondition;
  language: string;
  finish: string;
  quantity: number;
}

/** A saved line of the sell list. */
export interface SellListLine extends SellCopies {
  id: string;
}

/** The signed-in shopper's sell list, oldest first; null when it could not be read. */
export async function loadSellList(): Promise<SellListLine[] | null> {
  const { data, error } = await getSupabase()
    .from('buylist_sell_list_items')
    .select('id, product_id, condition, language, finish, quantity')
    .order('created_at');
  if (error || !data) return null;
  return data.map((row) => ({
    id: row.id,
    productId: row.product_id,
    condition: row.condition,
    language: row.language,
    finish: row.finish,
    quantity: row.quantity,
  }));
}

/** Saves copies on the sell list (the same card, condition, language and finish keep one line with the new quantity). */
export async function saveSellLine(copies: SellCopies): Promise<boolean> {
  const { error } = await getSupabase()
    .from('buylist_sell_list_items')
    .upsert(
      { product_id: copies.productId, condition: copies.condition, language: copies.language, finish: copies.finish, quantity: copies.quantity },
      { onConflict: 'user_id,product_id,condition,language,finish' },
    );
  return !error;
}

/** Takes a line off the sell list. */
export async function removeSellLine(id: string): Promise<boolean> {
  const { error } = await getSupabase().from('buylist_sell_list_items').delete().eq('id', id);
  return !error;
}

/** How the shop pays a submission, as the database names it. */
export type Payout = 'saldo' | 'transferencia';

/** What submitting answered: the submission, or the database's refusal (message, machine code, hint). */
export type SubmitAnswer =
  | { ok: true; id: string; code: string; expiresAt: string; totalCash: Centavos; totalCredit: Centavos }
  | { ok: false; message: string | null; details: string; hint: string };

/** Submits the sell list; `requestId` makes a repeated click the same submission. */
export async function submitSale(requestId: string, lines: readonly SellCopies[], payout: Payout, clabe: string | null): Promise<SubmitAnswer> {
  const { data, error } = await getSupabase().rpc('submit_buylist', {
    p_request_id: requestId,
    p_lines: lines.map((line) => ({ ...line })) as unknown as Json,
    p_payout: payout,
    p_clabe: clabe,
  });
  if (error || !data) {
    const known = error?.code === 'P0001';
    return { ok: false, message: known ? error.message : null, details: known ? (error.details ?? '') : '', hint: known ? (error.hint ?? '') : '' };
  }
  const answer = data as { id: string; code: string; expiresAt: string; totalCash: number; totalCredit: number };
  return {
    ok: true,
    id: answer.id,
    code: answer.code,
    expiresAt: answer.expiresAt,
    totalCash: toCentavos(answer.totalCash),
    totalCredit: toCentavos(answer.totalCredit),
  };
}

/** A submission's line with its review. */
export interface SaleLine {
  id: string;
  position: number;
  productId: string;
  name: string;
  collectorNumber: string;
  condition: CardCondition;
  language: string;
  finish: string;
  quantity: number;
  unitCash: Centavos;
  unitCredit: Centavos;
  reviewed: boolean;
  finalCondition: CardCondition | null;
  rejected: number;
  rejectReason: string | null;
  finalUnitCash: Centavos | null;
  finalUnitCredit: Centavos | null;
}

/** The payment of a submission. */
export interface SalePayout {
  method: string;
  amount: Centavos;
  status: string;
  reference: string | null;
  paidAt: string | null;
}

/** A submission as the shopper (and the back office) reads it. */
export interface Sale {
  id: string;
  code: string;
  userId: string;
  status: string;
  payout: Payout;
  clabe: string | null;
  bonusPercent: number;
  submittedCash: Centavos;
  submittedCredit: Centavos;
  offerCash: Centavos | null;
  offerCredit: Centavos | null;
  note: string | null;
  expiresAt: string;
  receivedAt: string | null;
  paidAt: string | null;
  returnTracking: string | null;
  createdAt: string;
  lines: SaleLine[];
  payment: SalePayout | null;
}

const SALE_COLUMNS =
  'id, code, user_id, status, payout, clabe, credit_bonus_percent, submitted_cash, submitted_credit, offer_cash, offer_credit, note, expires_at, received_at, paid_at, return_tracking, created_at, buylist_submission_lines(id, position, product_id, name, collector_number, condition, language, finish, quantity, unit_cash, unit_credit, reviewed_at, final_condition, rejected_quantity, reject_reason, final_unit_cash, final_unit_credit), buylist_payouts(method, amount, status, reference, paid_at)';

type LineRow = Pick<
  Tables<'buylist_submission_lines'>,
  | 'id'
  | 'position'
  | 'product_id'
  | 'name'
  | 'collector_number'
  | 'condition'
  | 'language'
  | 'finish'
  | 'quantity'
  | 'unit_cash'
  | 'unit_credit'
  | 'reviewed_at'
  | 'final_condition'
  | 'rejected_quantity'
  | 'reject_reason'
  | 'final_unit_cash'
  | 'final_unit_credit'
>;
type PayoutRow = Pick<Tables<'buylist_payouts'>, 'method' | 'amount' | 'status' | 'reference' | 'paid_at'>;
type SaleRow = Pick<
  Tables<'buylist_submissions'>,
  | 'id'
  | 'code'
  | 'user_id'
  | 'status'
  | 'payout'
  | 'clabe'
  | 'credit_bonus_percent'
  | 'submitted_cash'
  | 'submitted_credit'
  | 'offer_cash'
  | 'offer_credit'
  | 'note'
  | 'expires_at'
  | 'received_at'
  | 'paid_at'
  | 'return_tracking'
  | 'created_at'
> & { buylist_submission_lines: LineRow[] | null; buylist_payouts: PayoutRow[] | PayoutRow | null };

const maybeCentavos = (value: number | null) => (value === null ? null : toCentavos(value));

function toLine(row: LineRow): SaleLine {
  return {
    id: row.id,
    position: row.position,
    productId: row.product_id,
    name: row.name,
    collectorNumber: row.collector_number,
    condition: row.condition,
    language: row.language,
    finish: row.finish,
    quantity: row.quantity,
    unitCash: toCentavos(row.unit_cash),
    unitCredit: toCentavos(row.unit_credit),
    reviewed: row.reviewed_at !== null,
    finalCondition: row.final_condition,
    rejected: row.rejected_quantity ?? 0,
    rejectReason: row.reject_reason,
    finalUnitCash: maybeCentavos(row.final_unit_cash),
    finalUnitCredit: maybeCentavos(row.final_unit_credit),
  };
}

/** A submission row (with its lines and payout) as a Sale. */
export function toSale(row: SaleRow): Sale {
  const payouts = Array.isArray(row.buylist_payouts) ? row.buylist_payouts : row.buylist_payouts ? [row.buylist_payouts] : [];
  const payout = payouts[0];
  return {
    id: row.id,
    code: row.code ?? '',
    userId: row.user_id,
    status: row.status,
    payout: row.payout === 'transferencia' ? 'transferencia' : 'saldo',
    clabe: row.clabe,
    bonusPercent: Number(row.credit_bonus_percent),
    submittedCash: toCentavos(row.submitted_cash),
    submittedCredit: toCentavos(row.submitted_credit),
    offerCash: maybeCentavos(row.offer_cash),
    offerCredit: maybeCentavos(row.offer_credit),
    note: row.note,
    expiresAt: row.expires_at,
    receivedAt: row.received_at,
    paidAt: row.paid_at,
    returnTracking: row.return_tracking,
    createdAt: row.created_at,
    lines: (row.buylist_submission_lines ?? []).map(toLine).sort((a, b) => a.position - b.position),
    payment: payout
      ? { method: payout.method, amount: toCentavos(payout.amount), status: payout.status, reference: payout.reference, paidAt: payout.paid_at }
      : null,
  };
}

/** The submissions row-level security lets the caller read (a shopper: their own), newest first; `status` narrows them. */
export async function loadSales(status: string | null = null, limit = 100): Promise<Sale[] | null> {
  let query = getSupabase().from('buylist_submissions').select(SALE_COLUMNS);
  if (status) query = query.eq('status', status);
  const { data, error } = await query.order('created_at', { ascending: false }).limit(limit);
  if (error || !data) return null;
  return (data as unknown as SaleRow[]).map(toSale);
}

/** One submission the caller may read; null when it is not there (or not theirs). */
export async function loadSale(id: string): Promise<Sale | null> {
  const { data, error } = await getSupabase().from('buylist_submissions').select(SALE_COLUMNS).eq('id', id).maybeSingle();
  if (error || !data) return null;
  return toSale(data as unknown as SaleRow);
}

/** The answer of a database function that changes a submission: ok, or its Spanish refusal (null: no answer). */
export type ActionAnswer = { ok: true } | { ok: false; message: string | null };

/** Calls one of the submission's functions and reads its refusal. */
export async function saleAction(
  name: 'accept_buylist_offer' | 'return_buylist_submission' | 'cancel_buylist_submission',
  submissionId: string,
): Promise<ActionAnswer> {
  const { error } = await getSupabase().rpc(name, { p_submission: submissionId });
  if (error) return { ok: false, message: error.code === 'P0001' ? error.message : null };
  return { ok: true };
}
