/**
 * The one place that picks the invoicing provider, the way payments pick theirs
 * (src/server/payments/providers/index.ts):
 * - FACTURAPI_KEY set: Facturapi through its SDK (a test key `sk_test_…` issues Facturapi's test
 *   facturas, a live key real ones);
 * - no key in simulated payment mode: the simulated provider, whose facturas say 'SIN VALIDEZ
 *   FISCAL';
 * - no key in live payment mode: none. Requests answer 503 and facturas wait in the queue; a
 *   live shop is never given test facturas.
 */
import type { PaymentsMode } from '../payments/providers/index.ts';
import { FacturapiProvider } from './facturapi.ts';
import { SimulatedInvoiceProvider } from './simulated.ts';
import type { InvoiceProvider } from './types.ts';

interface InvoicingSettings {
  paymentsMode: PaymentsMode;
  facturapiKey?: string | undefined;
  /** Where the SDK sends requests (FACTURAPI_API_BASE: tests point it at a stub). */
  facturapiApiBase?: string | undefined;
  /** The shop's postal code as registered at the SAT (FACTURAPI_ISSUER_ZIP), for the factura global. */
  issuerZip?: string | undefined;
}

export function createInvoicing(settings: InvoicingSettings): InvoiceProvider | null {
  const key = settings.facturapiKey?.trim();
  if (key) return new FacturapiProvider(key, settings.issuerZip?.trim() || undefined, settings.facturapiApiBase?.trim() || undefined);
  return settings.paymentsMode === 'simulated' ? new SimulatedInvoiceProvider() : null;
}
