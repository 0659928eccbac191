/** Orders: their statuses, how they were paid, refunds as the shopper reads them. */
export {};
