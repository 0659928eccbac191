/** The cart and its summary. */
export {};
