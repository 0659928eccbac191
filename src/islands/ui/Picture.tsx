/**
 * An image that asks for the right copy: a photo whose stored name records its copies
 * (src/domain/image-variants.ts) is a `<picture>` with its AVIF and WebP `srcset`s and the JPEG
 * `srcset`/`sizes` for the rest (responsiveImage, src/domain/images.ts); anything else (a
 * generated SVG, an image without copies) is the plain `<img>` it was.
 */
import type { ImgHTMLAttributes } from 'react';
import { containedSize, responsiveImage, type ImageSlot } from '~/domain/images.ts';

interface Props extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'sizes' | 'width' | 'height'> {
  src: string;
  alt: string;
  frame: ImageSlot;
  /** The box the image is drawn in (its width and height attributes); a photo keeps its proportions inside it. Without one, the photo's own size. */
  box?: readonly [width: number, height: number];
}

/** `<picture>` with AVIF/WebP sources for a photo with copies, else `<img>`. */
export function Picture({ src, alt, frame, box, ...rest }: Props) {
  const copies = responsiveImage(src, frame);
  if (!copies) return <img src={src} alt={alt} width={box?.[0]} height={box?.[1]} {...rest} />;
  const [width, height] = box ? containedSize(copies, box) : [copies.width, copies.height];
  return (
    <picture>
      {copies.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={copies.sizes} />
      ))}
      <img src={copies.src} srcSet={copies.srcset} sizes={copies.sizes} alt={alt} width={width} height={height} {...rest} />
    </picture>
  );
}
