/** What the payment endpoints and providers answer. */
export {};
