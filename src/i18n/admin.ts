/** The back office. */
export {};
