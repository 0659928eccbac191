// Element Timing's attribute on React's images too (the product gallery's first image; see
// src/env.d.ts for Astro's): the browser reports when the image was painted
// (src/server/late-scripts.ts).
import 'react';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- merged with React's own, whose type parameter it repeats
  interface ImgHTMLAttributes<T> {
    elementtiming?: string | undefined;
  }
}
