/** The catalogue as the shopper browses it: home, listings, product pages, singles, /explore, the header search, sliders. */
export {};
