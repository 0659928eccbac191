import { describe, expect, it } from 'vitest';
import { FRANCHISE_IDS } from '~/domain/catalog.ts';
import { centavos } from '~/domain/money.ts';
import {
  CARD_CONDITIONS,
  CONDITION_LABELS,
  chooseOffer,
  offerKey,
  offerPriceRange,
  offersSummary,
  sortOffers,
  type SingleOffer,
  finishesOf,
  gradeLabel,
  graderVerifyUrl,
  languagesOf,
  normalizeCollectorNumber,
  offerLabel,
  raritiesOf,
  rarityLabel,
} from '~/domain/singles.ts';

const labels = (list: { label: string }[]): string[] => list.map((item) => item.label);

describe('conditions', () => {
  it('go from the best to the worst, with their Spanish names', () => {
    expect(CARD_CONDITIONS.map((c) => CONDITION_LABELS[c])).toEqual(['Casi nueva (NM)', 'Poco jugada (LP)', 'Jugada (MP)', 'Muy jugada (HP)', 'Dañada (DMG)']);
  });
});

describe('what each franchise prints', () => {
  it('languages', () => {
    expect(labels(languagesOf('pokemon'))).toEqual(['Español', 'Inglés', 'Japonés', 'Francés', 'Alemán', 'Italiano', 'Portugués', 'Coreano', 'Chino']);
    expect(labels(languagesOf('one-piece'))).toEqual(['Inglés', 'Japonés', 'Chino', 'Francés']);
    expect(labels(languagesOf('riftbound'))).toEqual(['Inglés', 'Chino']);
    expect(languagesOf('pokemon')[0]).toEqual({ code: 'es', label: 'Español' });
  });

  it('finishes', () => {
    expect(finishesOf('pokemon')).toEqual([
      { code: 'normal', label: 'Normal' },
      { code: 'holo', label: 'Holo' },
      { code: 'reverse-holo', label: 'Reverse holo' },
    ]);
    expect(labels(finishesOf('one-piece'))).toEqual(['Normal', 'Parallel', 'Manga']);
    expect(labels(finishesOf('riftbound'))).toEqual(['Normal', 'Foil']);
  });

  it('rarities', () => {
    expect(labels(raritiesOf('pokemon'))).toEqual([
      'Común',
      'Poco común',
      'Rara',
      'Rara holo',
      'Doble rara',
      'Ultra rara',
      'Ilustración rara',
      'Ilustración rara especial',
      'Hiper rara',
      'ACE SPEC',
    ]);
    expect(raritiesOf('one-piece').map((r) => r.code)).toEqual(['C', 'UC', 'R', 'SR', 'SEC', 'L', 'SP', 'TR']);
    expect(rarityLabel('one-piece', 'SEC')).toBe('SEC · Secret Rare');
    expect(labels(raritiesOf('riftbound'))).toEqual(['Common', 'Uncommon', 'Rare', 'Epic', 'Showcase']);
    expect(rarityLabel('pokemon', 'special-illustration-rare')).toBe('Ilustración rara especial');
    expect(rarityLabel('pokemon', 'desconocida')).toBe('desconocida');
  });

  it('every franchise of the catalogue has languages, finishes and rarities with unique codes and a name for each', () => {
    for (const franchise of FRANCHISE_IDS) {
      for (const list of [languagesOf(franchise), finishesOf(franchise), raritiesOf(franchise)]) {
        expect(list.length, franchise).toBeGreaterThan(0);
        expect(new Set(list.map((c) => c.code)).size, franchise).toBe(list.length);
        for (const choice of list) expect(choice.label, `${franchise} ${choice.code}`).not.toBe(choice.code);
      }
    }
  });
});

describe('offerLabel', () => {
  it('names a raw copy by condition, language and finish', () => {
    expect(offerLabel({ condition: 'NM', language: 'es', finish: 'holo', gradingCompany: null, grade: null })).toBe('NM · Español · Holo');
    expect(offerLabel({ condition: 'DMG', language: 'ja', finish: 'reverse-holo', gradingCompany: null, grade: null })).toBe('DMG · Japonés · Reverse holo');
    expect(offerLabel({ condition: 'LP', language: 'en', finish: 'manga', gradingCompany: null, grade: null })).toBe('LP · Inglés · Manga');
  });

  it('names a slab by grader, grade and language', () => {
    expect(offerLabel({ condition: null, language: 'en', finish: 'normal', gradingCompany: 'PSA', grade: 10 })).toBe('PSA 10 · Inglés');
    expect(offerLabel({ condition: null, language: 'ja', finish: 'holo', gradingCompany: 'BGS', grade: 9.5 })).toBe('BGS 9.5 · Japonés');
  });

  it('shows an unknown code as stored rather than hiding it', () => {
    expect(offerLabel({ condition: 'MP', language: 'xx', finish: 'etched', gradingCompany: null, grade: null })).toBe('MP · xx · etched');
  });
});

describe('gradeLabel', () => {
  it('prints whole grades without decimals and half grades with one', () => {
    expect(gradeLabel('PSA', 10)).toBe('PSA 10');
    expect(gradeLabel('CGC', 8)).toBe('CGC 8');
    expect(gradeLabel('BGS', 9.5)).toBe('BGS 9.5');
    expect(gradeLabel('CGC', 1.5)).toBe('CGC 1.5');
  });
});

describe('normalizeCollectorNumber', () => {
  it('keeps only letters and digits, in lower case', () => {
    expect(normalizeCollectorNumber('OP05-119')).toBe('op05119');
    expect(normalizeCollectorNumber('op05 119')).toBe('op05119');
    expect(normalizeCollectorNumber('199/165')).toBe('199165');
    expect(normalizeCollectorNumber('OGN-042')).toBe('ogn042');
    expect(normalizeCollectorNumber('  TG05/TG30 ')).toBe('tg05tg30');
    expect(normalizeCollectorNumber('SV-P 050')).toBe('svp050');
  });
});

describe('graderVerifyUrl', () => {
  it('opens each grader’s certificate lookup', () => {
    expect(graderVerifyUrl('PSA', '81234567')).toBe('https://www.psacard.com/cert/81234567');
    expect(graderVerifyUrl('BGS', '0012345678')).toBe('https://www.beckett.com/grading/card-lookup?item_type=BGS&item_id=0012345678');
    expect(graderVerifyUrl('CGC', '4321000001')).toBe('https://www.cgccards.com/certlookup/4321000001/');
  });

  it('trims the number and escapes what does not belong in a URL', () => {
    expect(graderVerifyUrl('PSA', ' 81234567 ')).toBe('https://www.psacard.com/cert/81234567');
    expect(graderVerifyUrl('CGC', '4321/0?1')).toBe('https://www.cgccards.com/certlookup/4321%2F0%3F1/');
  });
});

function offer(partial: Partial<SingleOffer> & { id: string }): SingleOffer {
  return {
    condition: 'NM',
    language: 'es',
    finish: 'holo',
    gradingCompany: null,
    grade: null,
    certificateNumber: null,
    priceCentavos: centavos(10_000),
    originalPriceCentavos: null,
    stock: 1,
    images: [],
    position: 0,
    ...partial,
  };
}

describe('offers of a single', () => {
  const nmEs = offer({ id: 'a', priceCentavos: centavos(50_000), stock: 0 });
  const lpEn = offer({ id: 'b', condition: 'LP', language: 'en', finish: 'normal', priceCentavos: centavos(30_000), stock: 2 });
  const mpEs = offer({ id: 'c', condition: 'MP', priceCentavos: centavos(35_000), stock: 4 });
  const psa10 = offer({ id: 'd', condition: null, gradingCompany: 'PSA', grade: 10, certificateNumber: '87654321', priceCentavos: centavos(900_000) });
  const bgs95 = offer({ id: 'e', condition: null, gradingCompany: 'BGS', grade: 9.5, certificateNumber: '0012345', priceCentavos: centavos(700_000) });

  it('have a readable key for the link, unique per condition, language and finish or per certificate', () => {
    expect(offerKey(nmEs)).toBe('nm-es-holo');
    expect(offerKey(lpEn)).toBe('lp-en-normal');
    expect(offerKey(psa10)).toBe('psa-87654321');
  });

  it('list raw copies from the best condition, then slabs from the highest grade', () => {
    expect(sortOffers([psa10, mpEs, bgs95, lpEn, nmEs]).map((o) => o.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('open on the offer the link names, else the cheapest in stock', () => {
    const all = [nmEs, lpEn, mpEs, psa10, bgs95];
    expect(chooseOffer(all, 'PSA-87654321')?.id).toBe('d');
    expect(chooseOffer(all, 'nm-es-holo')?.id).toBe('a');
    // The sold-out NM is dearer anyway; LP at $300 is the cheapest with stock.
    expect(chooseOffer(all)?.id).toBe('b');
    expect(chooseOffer(all, 'no-such-offer')?.id).toBe('b');
    expect(chooseOffer([{ ...nmEs }, { ...lpEn, stock: 0 }])?.id).toBe('a');
    expect(chooseOffer([])).toBeUndefined();
  });

  it('sum up as the price of the cheapest copy in stock and the units of every copy', () => {
    expect(offersSummary([nmEs, lpEn, mpEs, psa10])).toEqual({ priceCentavos: centavos(30_000), originalPriceCentavos: null, stock: 7 });
    const discounted = { ...mpEs, priceCentavos: centavos(20_000), originalPriceCentavos: centavos(35_000) };
    expect(offersSummary([lpEn, discounted])).toEqual({ priceCentavos: centavos(20_000), originalPriceCentavos: centavos(35_000), stock: 6 });
    expect(offersSummary([{ ...nmEs }])).toEqual({ priceCentavos: centavos(50_000), originalPriceCentavos: null, stock: 0 });
    expect(offersSummary([])).toBeNull();
  });

  it('give the low and high price for the aggregate offer', () => {
    expect(offerPriceRange([nmEs, lpEn, psa10])).toEqual({ low: centavos(30_000), high: centavos(900_000) });
    expect(offerPriceRange([])).toBeNull();
  });
});
