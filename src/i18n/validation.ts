/** Form validation: the messages under each field. */
export {};
