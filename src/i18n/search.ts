/** The header search. */
export {};
