/** The e-mails the shop sends. */
export {};
