/**
 * The footer newsletter form.
 */
import { z } from 'zod';
import { emailField, MESSAGES, validateForm, type FormResult } from '../validation.ts';

export const newsletterSchema = z.object({ email: emailField(MESSAGES.newsletterEmail) });
export type NewsletterInput = z.infer<typeof newsletterSchema>;

/** Validates the footer newsletter form. */
export function validateNewsletter(input: unknown): FormResult<NewsletterInput> {
  return validateForm(newsletterSchema, input);
}
