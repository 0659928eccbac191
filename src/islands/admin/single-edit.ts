/**
 * Editing a single card in the back office: its printing (set code, collector number, rarity,
 * names) and its offers (a raw copy by condition, language and finish, or a graded slab), each
 * judged here with the shop's Spanish messages before anything is written; then saved through
 * src/data/singles-admin.ts with the admin's session. An offer's stock is saved as a compare and
 * set (admin_set_offer_stock): when shoppers reserved units since the grid read it, nothing is
 * written and the admin is told how many there are now, as in the product edit dialog. Every
 * change but a stock-only one asks for the catalogue rebuild of the product's pages.
 */
import { z } from 'zod';
import { requestRebuild } from '~/data/admin.ts';
import {
  addOffer,
  deleteOffer,
  savePrinting,
  setOfferStock,
  updateOffer,
  type AdminPrinting,
  type OfferSave,
  type WriteFailure,
} from '~/data/singles-admin.ts';
import { isFranchiseId, type FranchiseId } from '~/domain/catalog.ts';
import { type Centavos, centavos, centavosToPesosInput, pesosInputToCentavos } from '~/domain/money.ts';
import { CARD_CONDITIONS, finishesOf, GRADING_COMPANIES, languagesOf, raritiesOf, type SingleOffer } from '~/domain/singles.ts';
import { validateForm, type FormResult } from '~/domain/validation.ts';
import { VALIDATION_MESSAGES as MESSAGES } from '~/i18n/validation.ts';
import { ADMIN_SINGLE_EDIT_TEXT } from '~/i18n/admin.ts';
import { stockChangedMessage } from './product-edit.ts';

// ---------------------------------------------------------------------------------------------
// The printing

const text = (max: number, message: string) =>
  z.preprocess((value) => (typeof value === 'string' ? value : ''), z.string().trim().max(max, { error: message }));

/** The printing's fields for a franchise: the rarity must be one the franchise prints. */
export function printingSchema(franchise: FranchiseId) {
  const rarities = raritiesOf(franchise).map((rarity) => rarity.code);
  return z.object({
    setCode: text(40, ADMIN_SINGLE_EDIT_TEXT.setCode),
    collectorNumber: text(40, ADMIN_SINGLE_EDIT_TEXT.collectorNumber).pipe(z.string().min(1, { error: ADMIN_SINGLE_EDIT_TEXT.collectorNumber })),
    rarity: text(40, ADMIN_SINGLE_EDIT_TEXT.rarity).refine((code) => rarities.includes(code), { error: ADMIN_SINGLE_EDIT_TEXT.rarity }),
    nameEn: text(200, ADMIN_SINGLE_EDIT_TEXT.cardName),
    nameEs: text(200, ADMIN_SINGLE_EDIT_TEXT.cardName),
  });
}

/** Validates the printing's fields ('Código de la expansión', 'Número de colección', 'Rareza', the names). */
export function validatePrinting(franchise: string, input: unknown): FormResult<AdminPrinting> {
  if (!isFranchiseId(franchise)) return { ok: false, fieldErrors: {}, formError: MESSAGES.productFranchise };
  return validateForm(printingSchema(franchise), input, { formError: MESSAGES.reviewFields });
}

// ---------------------------------------------------------------------------------------------
// An offer

/** The offer form as typed. */
export interface OfferForm {
  kind: 'raw' | 'slab';
  condition: string;
  language: string;
  finish: string;
  price: string;
  originalPrice: string;
  stock: string;
  gradingCompany: string;
  grade: string;
  certificateNumber: string;
  images: string[];
}

/** An empty offer form for a franchise: its first language and finish chosen. */
export function emptyOfferForm(franchise: FranchiseId, kind: OfferForm['kind'] = 'raw'): OfferForm {
  return {
    kind,
    condition: 'NM',
    language: languagesOf(franchise)[0]?.code ?? '',
    finish: finishesOf(franchise)[0]?.code ?? '',
    price: '',
    originalPrice: '',
    stock: '1',
    gradingCompany: '',
    grade: '',
    certificateNumber: '',
    images: [],
  };
}

/** The form of an offer on sale. */
export function offerFormOf(offer: SingleOffer): OfferForm {
  return {
    kind: offer.gradingCompany ? 'slab' : 'raw',
    condition: offer.condition ?? 'NM',
    language: offer.language,
    finish: offer.finish,
    price: centavosToPesosInput(offer.priceCentavos),
    originalPrice: offer.originalPriceCentavos === null ? '' : centavosToPesosInput(offer.originalPriceCentavos),
    stock: String(offer.stock),
    gradingCompany: offer.gradingCompany ?? '',
    grade: offer.grade === null ? '' : String(offer.grade),
    certificateNumber: offer.certificateNumber ?? '',
    images: offer.images,
  };
}

function choiceOf<T extends string>(value: string, allowed: readonly T[]): T | null {
  return (allowed as readonly string[]).includes(value) ? (value as T) : null;
}

/** The price and the original price (read once, as Centavos) and the stock of an offer form, each with its message. */
function judgeAmounts(form: OfferForm, errors: Record<string, string>) {
  const price = pesosInputToCentavos(form.price);
  if (price === null || price <= 0) errors.price = ADMIN_SINGLE_EDIT_TEXT.price;
  let originalPrice: Centavos | null = null;
  if (form.originalPrice.trim() !== '') {
    originalPrice = pesosInputToCentavos(form.originalPrice);
    if (originalPrice === null || (price !== null && originalPrice <= price)) errors.originalPrice = ADMIN_SINGLE_EDIT_TEXT.originalPrice;
  }
  const stock = /^\s*\d{1,6}\s*$/.test(form.stock) ? Number(form.stock) : null;
  if (stock === null) errors.stock = ADMIN_SINGLE_EDIT_TEXT.stock;
  return { priceCentavos: price ?? centavos(0), originalPriceCentavos: originalPrice, stock: stock ?? 0 };
}

/** A slab's grade ('9.5', '10'): from 1 to 10 in half points, or null. */
export function parseGrade(value: string): number | null {
  const grade = /^\s*\d{1,2}([.,]\d)?\s*$/.test(value) ? Number(value.replace(',', '.')) : Number.NaN;
  return grade >= 1 && grade <= 10 && Number.isInteger(grade * 2) ? grade : null;
}

/**
 * Validates an offer form of a franchise against the product's other offers (`others`, without
 * the offer being edited): one raw offer per condition, language and finish, and a certificate on
 * sale once.
 */
export function validateOffer(franchise: FranchiseId, form: OfferForm, others: readonly SingleOffer[]): FormResult<OfferSave> {
  const errors: Record<string, string> = {};
  const language = languagesOf(franchise).some((l) => l.code === form.language) ? form.language : null;
  if (!language) errors.language = ADMIN_SINGLE_EDIT_TEXT.language;
  const finish = finishesOf(franchise).some((f) => f.code === form.finish) ? form.finish : null;
  if (!finish) errors.finish = ADMIN_SINGLE_EDIT_TEXT.finish;
  const amounts = judgeAmounts(form, errors);
  let offer: OfferSave | null = null;
  if (form.kind === 'slab') {
    const gradingCompany = choiceOf(form.gradingCompany, GRADING_COMPANIES);
    if (!gradingCompany) errors.gradingCompany = ADMIN_SINGLE_EDIT_TEXT.company;
    const grade = parseGrade(form.grade);
    if (grade === null) errors.grade = ADMIN_SINGLE_EDIT_TEXT.grade;
    const certificateNumber = form.certificateNumber.trim();
    if (certificateNumber === '' || certificateNumber.length > 40) errors.certificateNumber = ADMIN_SINGLE_EDIT_TEXT.certificate;
    else if (others.some((o) => o.certificateNumber?.trim().toLowerCase() === certificateNumber.toLowerCase())) {
      errors.certificateNumber = ADMIN_SINGLE_EDIT_TEXT.duplicateCertificate;
    }
    if (gradingCompany && grade !== null && language && finish) {
      offer = { kind: 'slab', gradingCompany, grade, certificateNumber, language, finish, images: form.images, ...amounts };
    }
  } else {
    const condition = choiceOf(form.condition, CARD_CONDITIONS);
    if (!condition) errors.condition = ADMIN_SINGLE_EDIT_TEXT.condition;
    if (condition && others.some((o) => !o.gradingCompany && o.condition === condition && o.language === language && o.finish === finish)) {
      errors.condition = ADMIN_SINGLE_EDIT_TEXT.duplicateOffer;
    }
    if (condition && language && finish) offer = { kind: 'raw', condition, language, finish, ...amounts };
  }
  if (Object.keys(errors).length > 0 || !offer) {
    const duplicate = errors.condition === ADMIN_SINGLE_EDIT_TEXT.duplicateOffer || errors.certificateNumber === ADMIN_SINGLE_EDIT_TEXT.duplicateCertificate;
    const formError = duplicate ? (errors.condition ?? errors.certificateNumber ?? MESSAGES.reviewFields) : MESSAGES.reviewFields;
    return { ok: false, fieldErrors: errors, formError };
  }
  return { ok: true, data: offer };
}

// ---------------------------------------------------------------------------------------------
// Saving

/** The Spanish message of a refused write. */
export function writeFailureMessage(failure: WriteFailure, fallback: string): string {
  if (failure.kind === 'forbidden') return ADMIN_SINGLE_EDIT_TEXT.forbidden;
  if (failure.kind === 'duplicate_offer') return ADMIN_SINGLE_EDIT_TEXT.duplicateOffer;
  if (failure.kind === 'duplicate_certificate') return ADMIN_SINGLE_EDIT_TEXT.duplicateCertificate;
  return failure.message ? `${fallback} ${failure.message}` : fallback;
}

/** How a save of the editor ended. */
export type SingleSaveOutcome<T> = { ok: true; message: string; value: T } | { ok: false; message: string; stockChanged?: { stock: number } };

/** Saves the printing of a product and asks for its pages' rebuild. */
export async function savePrintingAndRebuild(productId: string, franchise: string, printing: AdminPrinting): Promise<SingleSaveOutcome<AdminPrinting>> {
  const saved = await savePrinting(productId, franchise, printing);
  if (!saved.ok) return { ok: false, message: writeFailureMessage(saved, ADMIN_SINGLE_EDIT_TEXT.printingFailed) };
  await requestRebuild({ productId });
  return { ok: true, message: ADMIN_SINGLE_EDIT_TEXT.printingSaved, value: printing };
}

/** Adds an offer after the product's others and asks for its pages' rebuild. */
export async function addOfferAndRebuild(productId: string, offer: OfferSave, existing: readonly SingleOffer[]): Promise<SingleSaveOutcome<SingleOffer>> {
  const position = existing.reduce((max, o) => Math.max(max, o.position + 1), 0);
  const added = await addOffer(productId, offer, position);
  if (!added.ok) return { ok: false, message: writeFailureMessage(added, ADMIN_SINGLE_EDIT_TEXT.offerFailed) };
  await requestRebuild({ productId });
  return { ok: true, message: ADMIN_SINGLE_EDIT_TEXT.offerAdded, value: added.offer };
}

/** Whether an edit changes more than the offer's stock (what the product page is built with). */
function changesBeyondStock(before: SingleOffer, after: OfferSave): boolean {
  const kept = offerFormOf(before);
  const now = offerFormOf({
    ...before,
    condition: after.kind === 'raw' ? after.condition : null,
    language: after.language,
    finish: after.finish,
    priceCentavos: after.priceCentavos,
    originalPriceCentavos: after.originalPriceCentavos,
    gradingCompany: after.kind === 'slab' ? after.gradingCompany : null,
    grade: after.kind === 'slab' ? after.grade : null,
    certificateNumber: after.kind === 'slab' ? after.certificateNumber : null,
    images: after.kind === 'slab' ? after.images : [],
  });
  return JSON.stringify({ ...kept, stock: '' }) !== JSON.stringify({ ...now, stock: '' });
}

/**
 * Saves an edited offer. The stock first, as a compare and set against `stockRead` (the stock the
 * grid showed): when it moved, nothing at all is written and the outcome carries the stock now.
 * Then the other columns, and a rebuild when they changed.
 */
export async function saveOfferEdit(productId: string, before: SingleOffer, offer: OfferSave, stockRead: number): Promise<SingleSaveOutcome<SingleOffer>> {
  let current: SingleOffer = before;
  if (offer.stock !== stockRead) {
    const stock = await setOfferStock(before.id, stockRead, offer.stock);
    if (stock.status === 'stock_changed') return { ok: false, message: stockChangedMessage(stock.stock), stockChanged: { stock: stock.stock } };
    if (stock.status === 'failed')
      return { ok: false, message: stock.message ? `${ADMIN_SINGLE_EDIT_TEXT.offerFailed} ${stock.message}` : ADMIN_SINGLE_EDIT_TEXT.offerFailed };
    current = { ...current, stock: stock.stock };
  }
  if (!changesBeyondStock(before, offer)) {
    return { ok: true, message: offer.stock !== stockRead ? ADMIN_SINGLE_EDIT_TEXT.offerStockSaved : ADMIN_SINGLE_EDIT_TEXT.offerUnchanged, value: current };
  }
  const updated = await updateOffer(before.id, offer);
  if (!updated.ok) return { ok: false, message: writeFailureMessage(updated, ADMIN_SINGLE_EDIT_TEXT.offerFailed) };
  await requestRebuild({ productId });
  return { ok: true, message: ADMIN_SINGLE_EDIT_TEXT.offerSaved, value: updated.offer };
}

/** Removes an offer and asks for its pages' rebuild. */
export async function removeOfferAndRebuild(productId: string, offer: SingleOffer): Promise<SingleSaveOutcome<null>> {
  const removed = await deleteOffer(offer.id);
  if (!removed.ok) return { ok: false, message: writeFailureMessage(removed, ADMIN_SINGLE_EDIT_TEXT.removeFailed) };
  await requestRebuild({ productId });
  return { ok: true, message: ADMIN_SINGLE_EDIT_TEXT.offerRemoved, value: null };
}
