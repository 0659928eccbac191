/**
 * Credit notes (CFDI de egreso) against the factura global. A sale the month's global covered
 * cannot be taken out of it once stamped; when it is refunded, by whatever path (the back office,
 * a PayPal reversal, a preorder…), the sweeper finds it here after the fact and queues a credit
 * note for what is still to credit of that sale: público en general like the global, related to
 * the global's folio fiscal (TipoRelacion '01'), one concept with its IVA broken out, the forma de
 * pago of the original sale. The database keeps one note per refund (its key) and never credits
 * more than the sale's part of the global; the note is then issued by the same queue as every
 * factura (./queue.ts), retried the same way, and the refund itself is never waited for.
 */
import { creditNoteConcepts } from '~/domain/credit-notes.ts';
import { paymentFormFor } from '~/domain/invoices.ts';
import { centavos } from '~/domain/money.ts';
import { orderDisplayId } from '~/domain/orders.ts';
import { CREDIT_NOTE_CONCEPT_TEXT } from '~/i18n/credit-notes.ts';
import type { ServerContext } from '../context.ts';
import { paidAmountsOf } from './sale-row.ts';
import type { InvoiceProvider } from './types.ts';

/** How the refunded sale was paid, as invoice_credit_notes_due answers it. */
interface DuePayment {
  payment_method?: string | null;
  total: number | string;
  credit_applied: number | string;
  card_funding?: string | null;
  installments?: number | null;
}

/**
 * Queues the credit notes of the refunded sales of `provider`'s issued facturas globales that
 * have none yet; answers how many were queued. A sale that cannot be queued is logged and looked
 * at again on the next sweep.
 */
export async function requestDueCreditNotes(ctx: ServerContext, provider: InvoiceProvider, limit = 50): Promise<number> {
  const { data, error } = await ctx.admin.rpc('invoice_credit_notes_due', { p_provider: provider.name, p_limit: limit });
  if (error) throw new Error(`invoice_credit_notes_due: ${error.message}`);
  let queued = 0;
  for (const due of data ?? []) {
    if (!due.order_id || !due.refund_key || due.amount === null) continue;
    const payment = due.payment as unknown as DuePayment;
    // Built apart so the payment's optional details pass through whatever the domain reads of them.
    const paid = {
      method: payment.payment_method ?? null,
      ...paidAmountsOf(payment),
      cardFunding: payment.card_funding ?? null,
      installments: payment.installments ?? null,
    };
    const form = paymentFormFor(paid);
    if (!form) {
      console.warn(`[facturas] nota de crédito del pedido ${due.order_id}: sin forma de pago`);
      continue;
    }
    const number = orderDisplayId(due.order_id);
    const concepts = creditNoteConcepts(centavos(Number(due.amount)), CREDIT_NOTE_CONCEPT_TEXT.refund(number), number.slice(1));
    const { data: answer, error: requestError } = await ctx.admin.rpc('request_credit_note', {
      p_order_id: due.order_id,
      p_refund_key: due.refund_key,
      p_amount: Number(due.amount),
      p_concepts: concepts as unknown as never,
      p_payment_form: form,
      p_provider: provider.name,
    });
    if (requestError) {
      console.error(`[facturas] request_credit_note ${due.order_id}: ${requestError.message}`);
      continue;
    }
    if (!(answer as unknown as { replayed: boolean }).replayed) queued += 1;
  }
  return queued;
}
