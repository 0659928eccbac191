/**
 * Which invoicing provider runs: Facturapi whenever a key is set (test mode by its key), the
 * simulated provider without a key in simulated payment mode, none in live mode without a key.
 */
import type Facturapi from 'facturapi';
import { describe, expect, it, vi } from 'vitest';
import { FacturapiProvider } from '~/server/invoicing/facturapi.ts';
import { createInvoicing } from '~/server/invoicing/index.ts';
import { SimulatedInvoiceProvider } from '~/server/invoicing/simulated.ts';
import { invoiceRow } from './invoice-row.ts';

const sdkOf = (provider: unknown) => (provider as { client: Facturapi }).client;
const globalRow = invoiceRow({
  kind: 'global',
  order_id: null,
  period_year: 2023,
  period_month: 5,
  customer: { rfc: 'XAXX010101000', legal_name: 'PUBLICO EN GENERAL', tax_regime: '616', tax_zip: '', cfdi_use: 'S01' },
});

describe('createInvoicing', () => {
  it('without a key: the simulated provider in simulated mode, none in live mode', () => {
    expect(createInvoicing({ paymentsMode: 'simulated' })).toBeInstanceOf(SimulatedInvoiceProvider);
    expect(createInvoicing({ paymentsMode: 'simulated', facturapiKey: '   ' })).toBeInstanceOf(SimulatedInvoiceProvider);
    expect(createInvoicing({ paymentsMode: 'live' })).toBeNull();
    expect(createInvoicing({ paymentsMode: 'live', facturapiKey: '  ' })).toBeNull();
  });

  it('with a key: Facturapi in either mode, in test mode only with a test key', () => {
    const test = createInvoicing({ paymentsMode: 'simulated', facturapiKey: ' sk_test_abc ' });
    expect(test).toBeInstanceOf(FacturapiProvider);
    expect(test).toMatchObject({ name: 'facturapi', testMode: true });
    expect(createInvoicing({ paymentsMode: 'live', facturapiKey: 'sk_live_abc' })).toMatchObject({ name: 'facturapi', testMode: false });
  });

  it('points the SDK at FACTURAPI_API_BASE when set, trimmed', () => {
    const stubbed = createInvoicing({ paymentsMode: 'live', facturapiKey: 'sk_test_abc', facturapiApiBase: ' http://127.0.0.1:9/v2 ' });
    expect(sdkOf(stubbed).BASE_URL).toBe('http://127.0.0.1:9/v2');
    const real = createInvoicing({ paymentsMode: 'live', facturapiKey: 'sk_test_abc', facturapiApiBase: '  ' });
    expect(sdkOf(real).BASE_URL).not.toBe('  ');
    expect(sdkOf(real).BASE_URL).toMatch(/^https:\/\//);
  });

  it("gives Facturapi the issuer's postal code, trimmed, for the factura global; a blank one is none", async () => {
    const withZip = createInvoicing({ paymentsMode: 'live', facturapiKey: 'sk_test_abc', issuerZip: ' 44100 ' })!;
    const create = vi.spyOn(sdkOf(withZip).invoices, 'create').mockResolvedValue({ id: 'inv_1', uuid: 'U-1', series: null, folio_number: null } as never);
    await withZip.issue(globalRow);
    expect(create.mock.calls[0]![0]).toMatchObject({ customer: { address: { zip: '44100' } } });

    const blank = createInvoicing({ paymentsMode: 'live', facturapiKey: 'sk_test_abc', issuerZip: '  ' })!;
    const never = vi.spyOn(sdkOf(blank).invoices, 'create');
    await expect(blank.issue(globalRow)).rejects.toThrow('FACTURAPI_ISSUER_ZIP');
    expect(never).not.toHaveBeenCalled();
  });
});
