/** Checkout: its steps, shipping, payment (card, wallets, PayPal, OXXO, balance), confirmation. */
export {};
