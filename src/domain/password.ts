/**
 * Password strength meter of the sign-up form: one point each for length ≥ 8, an uppercase
 * letter, a lowercase letter, a digit and a symbol, capped at 4 (so the scale is 0–4).
 */
import { AUTH_PASSWORD_FIELD_TEXT } from '../i18n/auth.ts';
import { percent } from './percent.ts';

/** The meter's labels, score 0 to 4 ('Débil' to 'Robusta'). */
export const STRENGTH_LABELS = AUTH_PASSWORD_FIELD_TEXT.strengthLabels;
export type StrengthLabel = (typeof STRENGTH_LABELS)[number];
export type StrengthColor = 'pink' | 'amber' | 'green';
export const MAX_STRENGTH = 4;

/** Score, label, bar colour and bar width of a password. */
export interface PasswordStrength {
  score: number;
  label: StrengthLabel;
  color: StrengthColor;
  /** Width of the meter bar, 0–100. */
  percent: number;
}

/** Strength score 0–4 of a password. */
export function passwordScore(password: string): number {
  const points = [
    password.length >= 8,
    /\p{Lu}/u.test(password),
    /\p{Ll}/u.test(password),
    /\p{Nd}/u.test(password),
    // Anything that is neither a letter nor a digit counts as a symbol (spaces included).
    /[^\p{L}\p{Nd}]/u.test(password),
  ].filter(Boolean).length;
  return Math.min(MAX_STRENGTH, points);
}

/** Bar colour token for a score: pink below 2, amber below 3, green otherwise. */
export function strengthColor(score: number): StrengthColor {
  if (score < 2) return 'pink';
  if (score < 3) return 'amber';
  return 'green';
}

/** Everything the strength meter shows for a password. */
export function passwordStrength(password: string): PasswordStrength {
  const score = passwordScore(password);
  return {
    score,
    label: STRENGTH_LABELS[score] ?? STRENGTH_LABELS[0],
    color: strengthColor(score),
    percent: percent(score, MAX_STRENGTH),
  };
}
