/**
 * Product images: main image, thumbnails and a full-screen viewer with previous/next that wrap
 * around, arrow keys, Escape, and focus kept inside while it is open. A photo with copies is asked
 * for at the width of its place (Picture): the viewer's at up to 900 px wide.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { wrapIndex } from '~/domain/products.ts';
import { IMAGE_SLOTS } from '~/domain/images.ts';
import { Picture } from '../ui/Picture.tsx';
import { PRODUCT_GALLERY_TEXT as TEXT } from '~/i18n/product.ts';
import { useMounted } from '../prebuilt.ts';
import { $offerImages } from './offer-images.ts';

interface Props {
  name: string;
  /** Resolved image URLs, main image first. */
  images: string[];
}

const FOCUSABLE = 'button, a[href], [tabindex]:not([tabindex="-1"])';

/** The product gallery. */
export default function Gallery({ name, images: cardImages }: Props) {
  const [index, setIndex] = useState(0);
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDivElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  // On a single card's page, the chosen slab's own photos come first (./offer-images.ts); only
  // once mounted, so hydration sees the prebuilt images.
  const mounted = useMounted();
  const storeImages = useStore($offerImages);
  const offerImages = mounted ? storeImages : null;
  const images = offerImages ? [...offerImages, ...cardImages.filter((src) => !offerImages.includes(src))] : cardImages;
  const count = images.length;

  // Another offer's photos start the gallery over at its first. Adjusted while rendering, not in
  // an effect: an effect run on mount, late on a busy phone, would undo the shopper's first tap.
  const [shownOffer, setShownOffer] = useState(offerImages);
  if (shownOffer !== offerImages) {
    setShownOffer(offerImages);
    setIndex(0);
  }

  const go = useCallback((step: number) => setIndex((current) => wrapIndex(current + step, count)), [count]);

  const close = useCallback(() => {
    setOpen(false);
    // Give focus back to what opened the viewer.
    requestAnimationFrame(() => openerRef.current?.focus());
  }, []);

  useEffect(() => {
    if (!open) return;
    dialogRef.current?.querySelector<HTMLElement>('.viewer-close')?.focus();
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previousOverflow;
    };
  }, [open]);

  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      go(1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      go(-1);
    } else if (event.key === 'Tab') {
      const focusable = Array.from(dialogRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []);
      if (focusable.length === 0) return;
      const first = focusable[0]!;
      const last = focusable[focusable.length - 1]!;
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !dialogRef.current?.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !dialogRef.current?.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    }
  };

  if (count === 0) {
    return (
      <div className="gallery">
        <div className="gallery-main gallery-empty">{TEXT.noImage}</div>
      </div>
    );
  }

  const current = images[wrapIndex(index, count)]!;
  return (
    <div className="gallery">
      <button ref={openerRef} type="button" className="gallery-main" aria-label={TEXT.open(wrapIndex(index, count) + 1, count)} onClick={() => setOpen(true)}>
        <Picture src={current} frame={IMAGE_SLOTS.product} box={[600, 600]} alt={name} fetchPriority="high" loading="eager" decoding="async" />
      </button>
      {count > 1 && (
        <ul className="gallery-thumbs" aria-label={TEXT.thumbnails}>
          {images.map((src, i) => (
            <li key={src}>
              <button
                type="button"
                className="gallery-thumb"
                aria-label={TEXT.show(i + 1, count)}
                aria-current={i === index ? 'true' : undefined}
                onClick={() => setIndex(i)}
              >
                <Picture src={src} frame={IMAGE_SLOTS.thumb80} box={[80, 80]} alt="" loading="lazy" decoding="async" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && (
        <div ref={dialogRef} className="viewer" role="dialog" aria-modal="true" aria-label={TEXT.viewer(name)} onKeyDown={onKeyDown}>
          <p className="viewer-counter" aria-live="polite">
            {TEXT.counter(wrapIndex(index, count) + 1, count)}
          </p>
          <Picture
            className="viewer-image"
            src={current}
            frame={IMAGE_SLOTS.viewer}
            box={[900, 900]}
            alt={TEXT.alt(name, wrapIndex(index, count) + 1, count)}
          />
          <button type="button" className="viewer-btn viewer-prev" aria-label={TEXT.previous} onClick={() => go(-1)}>
            ‹
          </button>
          <button type="button" className="viewer-btn viewer-next" aria-label={TEXT.next} onClick={() => go(1)}>
            ›
          </button>
          <button type="button" className="viewer-btn viewer-close" aria-label={TEXT.close} onClick={close}>
            ×
          </button>
        </div>
      )}
    </div>
  );
}
