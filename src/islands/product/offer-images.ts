/**
 * The photos of the offer chosen on a single card's page (a slab's own photos), shared by the
 * offer picker, which sets them, and the gallery, which shows them before the card's images. The
 * gallery hydrates on interaction, so setting them also dispatches OFFER_IMAGES_EVENT, which wakes
 * it; it reads the store when it mounts.
 */
import { atom } from 'nanostores';

/** The event that wakes the gallery when the chosen offer has photos of its own. */
export const OFFER_IMAGES_EVENT = 'tienda:offer-images';

/** The chosen offer's own photos; null when it has none (the card's images alone). */
export const $offerImages = atom<readonly string[] | null>(null);

/** Shows the chosen offer's photos in the gallery, or only the card's images again (empty). */
export function showOfferImages(images: readonly string[]): void {
  const next = images.length > 0 ? images : null;
  if (next === null && $offerImages.get() === null) return;
  $offerImages.set(next);
  window.dispatchEvent(new CustomEvent(OFFER_IMAGES_EVENT));
}
