/// <reference path="../.astro/types.d.ts" />
/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The products an /explore answer shows, for keeping it until one of them changes (src/server/explore/rendered.ts). */
    exploreShown?: readonly string[];
    /** The page's module scripts are asked for once its first image is on screen (src/server/late-scripts.ts). */
    scriptsAfterFirstImage?: boolean;
    /**
     * The address a catalogue page is rendered for when the running server renders it for an edit
     * (src/pages/catalog-render/): what `Astro.url.pathname` is when the build prerenders it.
     */
    catalogPagePath?: string;
  }
}

// Element Timing's attribute, which Astro's HTML types do not list yet: the browser reports when an
// image with it was painted (ProductCard's first card, src/server/late-scripts.ts).
declare namespace astroHTML.JSX {
  interface ImgHTMLAttributes {
    elementtiming?: string | undefined | null;
  }
}
