/// <reference path="../.astro/types.d.ts" />
/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The products an /explore answer shows, for keeping it until one of them changes (src/server/explore/rendered.ts). */
    exploreShown?: readonly string[];
  }
}
