/**
 * What the account page needs beyond single tables: the quick summary, and the saved cards served
 * by the shop's own /api/stripe endpoints (live subscriptions are in ./realtime.ts).
 */
import type * as z from 'zod/mini';
import { callApi } from './api.ts';
import { defaultCardAnswer, detachedCardAnswer, savedCardsAnswer } from '~/domain/api-answers.ts';
import { ACCOUNT_SAVED_CARDS_TEXT } from '~/i18n/account.ts';
import { listOrders, countOrdersSince } from './orders.ts';
import { getRewardPoints } from './rewards.ts';
import { countCoupons } from './coupons.ts';

/** The quick summary of the profile panel. */
export interface AccountSummary {
  orders: number;
  points: number;
  coupons: number;
  ordersLast30Days: number;
}

/** Days counted by the "orders in the last 30 days" figure. */
export const SUMMARY_WINDOW_DAYS = 30;

/** Loads the quick summary; throws the first backend error so the caller can log it. */
export async function loadSummary(userId: string, now: Date = new Date()): Promise<AccountSummary> {
  const since = new Date(now.getTime() - SUMMARY_WINDOW_DAYS * 24 * 60 * 60 * 1000);
  const [orders, points, coupons, recent] = await Promise.all([
    listOrders(userId),
    getRewardPoints(userId),
    countCoupons(userId),
    countOrdersSince(userId, since),
  ]);
  for (const result of [orders, points, coupons, recent]) if (result.error) throw result.error;
  return {
    orders: orders.data?.length ?? 0,
    points: points.data ?? 0,
    coupons: coupons.data ?? 0,
    ordersLast30Days: recent.data ?? 0,
  };
}

/** A saved card as the payment endpoints return it. */
export type SavedCard = z.infer<typeof savedCardsAnswer>[number];

/** The saved cards of a Stripe customer. */
export async function listSavedCards(customerId: string): Promise<SavedCard[]> {
  const answer = await callApi(`/api/stripe/payment-methods?customerId=${encodeURIComponent(customerId)}`, { schema: savedCardsAnswer });
  if (!answer.ok || !answer.data) throw new Error(answer.ok ? ACCOUNT_SAVED_CARDS_TEXT.unexpectedAnswer : `HTTP ${answer.status}`);
  return answer.data;
}

/** Makes a saved card the customer's default. */
export async function setDefaultCard(customerId: string, pmId: string): Promise<void> {
  const answer = await callApi(`/api/stripe/customers/${encodeURIComponent(customerId)}/default-payment-method`, {
    method: 'POST',
    body: { pmId },
    schema: defaultCardAnswer,
  });
  if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
}

/** Removes a saved card. */
export async function removeCard(pmId: string): Promise<void> {
  const answer = await callApi(`/api/stripe/payment-methods/${encodeURIComponent(pmId)}/detach`, { method: 'POST', schema: detachedCardAnswer });
  if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
}
