/** The account area: profile, addresses, orders, saved cards, balance. */
export {};
