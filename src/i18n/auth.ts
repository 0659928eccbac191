/** Sign-in, registration and passwords. */
export {};
