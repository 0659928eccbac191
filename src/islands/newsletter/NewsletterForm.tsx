/**
 * Footer newsletter sign-up: one e-mail field with idle, sending, error and success states.
 * Hydrated only when the visitor reaches for it (client:interaction), so supabase-js and the
 * validation schemas load on demand.
 */
import { useId, useRef, useState, type SubmitEvent } from 'react';
import { validateNewsletter } from '~/domain/validation/newsletter';
import { subscribeToNewsletter, type SubscribeResult } from '~/data/newsletter';
import { ACCOUNT_NEWSLETTER_TEXT } from '~/i18n/account';
import { VALIDATION_MESSAGES } from '~/i18n/validation';
import { usePrebuiltForm } from '../prebuilt';
import './NewsletterForm.css';

type Status = 'idle' | 'sending' | 'invalid' | 'failure' | 'success';

/** The footer's e-mail sign-up form. */
export default function NewsletterForm() {
  const id = useId();
  const inputId = `${id}-correo`;
  const messageId = `${id}-mensaje`;
  const formRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState<Status>('idle');

  // The island hydrates when the visitor reaches for it, possibly after typing or pressing Enter:
  // keep that text and replay that submit (src/islands/prebuilt.ts).
  usePrebuiltForm(formRef, { email }, (_name, typed) => setEmail(typed));

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status === 'sending') return;
    // Read the field itself: text typed before hydration never reached React's state.
    const value = inputRef.current?.value ?? email;
    const result = validateNewsletter({ email: value });
    if (!result.ok) {
      setStatus('invalid');
      inputRef.current?.focus();
      return;
    }
    setStatus('sending');
    let outcome: SubscribeResult = 'failed';
    try {
      outcome = await subscribeToNewsletter(result.data.email);
    } catch (error) {
      // Only a misconfigured project URL gets here; the shopper still sees the failure message.
      console.error('newsletter: no Supabase client', error);
    }
    if (outcome === 'ok') {
      setEmail('');
      setStatus('success');
    } else {
      setStatus('failure');
    }
  };

  const message =
    status === 'invalid'
      ? VALIDATION_MESSAGES.newsletterEmail
      : status === 'failure'
        ? ACCOUNT_NEWSLETTER_TEXT.failure
        : status === 'success'
          ? ACCOUNT_NEWSLETTER_TEXT.success
          : '';
  const isError = status === 'invalid' || status === 'failure';

  return (
    <form ref={formRef} className="nl-form" data-prebuilt noValidate onSubmit={onSubmit} aria-busy={status === 'sending'}>
      <label htmlFor={inputId} className="nl-label">
        {ACCOUNT_NEWSLETTER_TEXT.label}
      </label>
      <div className="nl-row">
        <input
          ref={inputRef}
          id={inputId}
          className="input nl-input"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          placeholder={ACCOUNT_NEWSLETTER_TEXT.placeholder}
          required
          maxLength={254}
          value={email}
          aria-invalid={status === 'invalid' ? true : undefined}
          aria-describedby={message ? messageId : undefined}
          onChange={(event) => {
            setEmail(event.target.value);
            if (status !== 'sending') setStatus('idle');
          }}
        />
        <button type="submit" className="btn btn-accent" disabled={status === 'sending'}>
          {status === 'sending' ? ACCOUNT_NEWSLETTER_TEXT.sending : ACCOUNT_NEWSLETTER_TEXT.submit}
        </button>
      </div>
      {/* Always in the page, so screen readers announce each new message. */}
      <p id={messageId} className={`nl-message${isError ? ' nl-error' : ''}${status === 'success' ? ' nl-success' : ''}`} role="status">
        {message}
      </p>
    </form>
  );
}
