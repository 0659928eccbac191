import { describe, expect, it } from 'vitest';
import { readAddressForm, readEntryForm, readRulesForm, type RulesForm } from '~/domain/buylist-rules';
import { centavos } from '~/domain/money';

const RULES: RulesForm = {
  shareLp: '80',
  shareMp: '60',
  shareHp: '40',
  shareDmg: '20',
  defaultOn: true,
  defaultPercent: '50',
  bonus: '25',
  minimum: '100',
  defaultLimit: '4',
  reservationDays: '14',
};

const ADDRESS = {
  name: 'Cartas Mx · Compras',
  street: 'Av. Álvaro Obregón 120, int. 4',
  colonia: 'Roma Norte',
  zip: '06700',
  municipio: 'Cuauhtémoc',
  state: 'Ciudad de México',
  phone: '55 1234-5678',
  hours: 'Lunes a sábado de 12:00 a 20:00',
};

describe('readRulesForm', () => {
  it('reads the shares, the default rule, the bonus, the minimum in centavos, the limit and the days', () => {
    expect(readRulesForm({ ...RULES, shareLp: ' 75.5 ', minimum: '99.90' })).toEqual({
      ok: true,
      value: {
        shares: { LP: 75.5, MP: 60, HP: 40, DMG: 20 },
        defaultPercent: 50,
        bonusPercent: 25,
        minimum: centavos(9990),
        defaultLimit: 4,
        reservationDays: 14,
      },
    });
  });

  it('turns the default rule off whatever its field holds', () => {
    const reading = readRulesForm({ ...RULES, defaultOn: false, defaultPercent: 'x' });
    expect(reading.ok && reading.value.defaultPercent).toBeNull();
  });

  it('names each field out of bounds', () => {
    const reading = readRulesForm({
      ...RULES,
      shareLp: '101',
      shareHp: '-1',
      defaultPercent: '',
      bonus: '12.345',
      minimum: '$100',
      defaultLimit: '0',
      reservationDays: '91',
    });
    expect(reading).toEqual({
      ok: false,
      problems: {
        shareLp: 'percent',
        shareHp: 'percent',
        defaultPercent: 'percent',
        bonus: 'percent',
        minimum: 'money',
        defaultLimit: 'limit',
        reservationDays: 'days',
      },
    });
  });

  it('refuses a lower condition paying more than the one above it', () => {
    expect(readRulesForm({ ...RULES, shareMp: '85' })).toEqual({ ok: false, problems: { shareMp: 'share_order' } });
    expect(readRulesForm({ ...RULES, shareDmg: '40' }).ok).toBe(true);
  });
});

describe('readAddressForm', () => {
  it('reads a complete address with the phone as 10 digits', () => {
    expect(readAddressForm(ADDRESS)).toEqual({ ok: true, value: { ...ADDRESS, phone: '5512345678' } });
  });

  it('reads every field empty as no address, and the optional phone and hours empty as null', () => {
    const empty = Object.fromEntries(Object.keys(ADDRESS).map((key) => [key, ' '])) as typeof ADDRESS;
    expect(readAddressForm(empty)).toEqual({ ok: true, value: null });
    const reading = readAddressForm({ ...ADDRESS, phone: '', hours: '' });
    expect(reading.ok && [reading.value?.phone, reading.value?.hours]).toEqual([null, null]);
  });

  it('names the missing parts, a CP that is not 5 digits and a phone that is not 10', () => {
    expect(readAddressForm({ ...ADDRESS, colonia: '', zip: '6700', phone: '551234' })).toEqual({
      ok: false,
      problems: { colonia: 'required', zip: 'zip', phone: 'phone' },
    });
    expect(readAddressForm({ ...ADDRESS, hours: 'x'.repeat(201) })).toEqual({ ok: false, problems: { hours: 'too_long' } });
  });
});

describe('readEntryForm', () => {
  it('reads the wanted copies, the NM price in centavos and the limit', () => {
    expect(readEntryForm({ wanted: '8', nmPrice: '2400', limitPerShopper: '2' })).toEqual({
      ok: true,
      value: { wanted: 8, nmPrice: centavos(240000), limitPerShopper: 2 },
    });
  });

  it('reads an empty price as the default rule and an empty limit as the default', () => {
    expect(readEntryForm({ wanted: '0', nmPrice: ' ', limitPerShopper: '' })).toEqual({
      ok: true,
      value: { wanted: 0, nmPrice: null, limitPerShopper: null },
    });
  });

  it('names a price of zero or not in pesos, a negative count and a limit out of bounds', () => {
    expect(readEntryForm({ wanted: '-1', nmPrice: '0', limitPerShopper: '1000' })).toEqual({
      ok: false,
      problems: { wanted: 'wanted', nmPrice: 'price', limitPerShopper: 'limit' },
    });
    expect(readEntryForm({ wanted: '3', nmPrice: '1,200', limitPerShopper: '' })).toEqual({ ok: false, problems: { nmPrice: 'price' } });
  });
});
