/** What the shop's API answers for requests it refuses: session, size, format. */
export {};
