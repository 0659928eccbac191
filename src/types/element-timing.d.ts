// Element Timing's attribute on the islands' images (the product page's gallery), which React's
// types do not list: the browser reports when an image with it was painted
// (src/server/late-scripts.ts). The Astro side is in src/env.d.ts.
import 'react';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- merged with React's own declaration, whose type parameter it repeats
  interface ImgHTMLAttributes<T> {
    elementtiming?: string | undefined;
  }
}
