/**
 * The one pattern of the shop's account and back-office forms: validate what was typed, show the
 * field errors and the form's error, else send it while the form is busy. A second submit while
 * one is being sent (a double click, Enter pressed twice) does nothing.
 */
import { useRef, useState, type FormEvent } from 'react';
import type { FormResult } from '~/domain/validation.ts';

/** A refusal of the send itself: the form's error and, when the server judged fields, theirs. */
export interface FormRefusal {
  formError: string;
  fieldErrors?: Record<string, string>;
}

/** What a send ends with: nothing (done), the form's error, or a refusal with field errors. */
export type SendOutcome = void | undefined | string | FormRefusal;

/** How a form is judged and sent. */
export interface FormSpec<T> {
  /** Judges the typed values; without it every submit is sent. */
  validate?: () => FormResult<T>;
  /** Sends the validated values; a string or refusal it resolves to is shown on the form. */
  send: (data: T) => Promise<SendOutcome> | SendOutcome;
}

/** Where a submit writes what it finds. */
export interface FormSinks {
  setErrors: (errors: Record<string, string>) => void;
  setFormError: (message: string) => void;
  setBusy: (busy: boolean) => void;
}

/** How a submit went: ignored (one already being sent), refused by validation, or sent. */
export type SubmitResult = 'busy' | 'invalid' | 'sent';

/**
 * One submit: nothing while `guard` says one is being sent; else validate, then send with the
 * guard and the busy state set until the send settles (even when it throws).
 */
export async function submitForm<T>(guard: { current: boolean }, spec: FormSpec<T>, sinks: FormSinks): Promise<SubmitResult> {
  if (guard.current) return 'busy';
  const parsed: FormResult<T> = spec.validate ? spec.validate() : { ok: true, data: undefined as T };
  if (!parsed.ok) {
    sinks.setErrors(parsed.fieldErrors);
    sinks.setFormError(parsed.formError);
    return 'invalid';
  }
  sinks.setErrors({});
  sinks.setFormError('');
  guard.current = true;
  sinks.setBusy(true);
  try {
    const outcome = await spec.send(parsed.data);
    if (typeof outcome === 'string') sinks.setFormError(outcome);
    else if (outcome) {
      sinks.setErrors(outcome.fieldErrors ?? {});
      sinks.setFormError(outcome.formError);
    }
  } finally {
    guard.current = false;
    sinks.setBusy(false);
  }
  return 'sent';
}

/** The state of a form built on useForm, and its submit handler. */
export interface FormHandle {
  errors: Record<string, string>;
  formError: string;
  busy: boolean;
  /** The form's onSubmit: prevents the browser's submit and runs submitForm. */
  onSubmit: (event?: FormEvent) => Promise<SubmitResult>;
  setErrors: (errors: Record<string, string> | ((current: Record<string, string>) => Record<string, string>)) => void;
  setFormError: (message: string) => void;
}

/**
 * A validated form with its busy state. The handler is made again at each render, so `spec` may
 * close over the latest typed values.
 */
export function useForm<T>(spec: FormSpec<T>): FormHandle {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState(false);
  // Set at once on submit, before React renders the busy state: a second click in the same frame sees it.
  const guard = useRef(false);
  const onSubmit = (event?: FormEvent) => {
    event?.preventDefault();
    return submitForm(guard, spec, { setErrors, setFormError, setBusy });
  };
  return { errors, formError, busy, onSubmit, setErrors, setFormError };
}
