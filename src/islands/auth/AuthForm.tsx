import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $session, initSession } from '~/stores/session.ts';
import { continueWithGoogle, registerShopper, requestPasswordReset, safeNextPath, signIn } from '~/stores/auth.ts';
import { flashToast, notify } from '~/stores/toast.ts';
import { AUTH_FORM_TEXT, AUTH_MESSAGES } from '~/i18n/auth.ts';
import PasswordField from './PasswordField.tsx';
import { usePrebuiltForm } from '../prebuilt.ts';
import Toaster from '../ui/Toaster.tsx';
import { TextField } from '../ui/Field.tsx';
import { useForm } from '../ui/use-form.ts';
import '../account/account.css';

type Mode = 'login' | 'register' | 'forgot';

/** The title and the submit button of each mode. */
const MODE_TEXT: Record<Mode, { title: string; submit: string }> = AUTH_FORM_TEXT.modes;

interface Props {
  /**
   * On the /auth page: leave for `?next=` (or /account) once signed in. Inside the account page
   * the page itself switches to the account when the session appears.
   */
  standalone?: boolean;
}

const EMPTY = { username: '', email: '', password: '', name: '', lastname: '', phone: '' };
type AuthFormFields = typeof EMPTY;

function nextFromUrl(): string {
  return safeNextPath(new URLSearchParams(window.location.search).get('next'));
}

/** Sign-in, sign-up and password recovery; on its own page it brings its notices along. */
export default function AuthForm(props: Props) {
  return props.standalone ? (
    <>
      <AuthScreen {...props} />
      <Toaster look="account" />
    </>
  ) : (
    <AuthScreen {...props} />
  );
}

/**
 * The form's values; what was typed (and a submit pressed) before hydration is kept and acted on
 * (src/islands/prebuilt.ts). `hydrated` marks the form as interactive.
 */
function useAuthFormFields() {
  const [form, setForm] = useState(EMPTY);
  const [hydrated, setHydrated] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  usePrebuiltForm(formRef, form, (name, typed) => setForm((f) => ({ ...f, [name]: typed })));
  useEffect(() => {
    setHydrated(true);
    initSession();
  }, []);
  return { form, setForm, formRef, hydrated };
}

/**
 * Leaving the auth page for `?next=`: once, whether this form signed in or the session appeared
 * otherwise (a link, Google, another tab). While the form signs in itself, it moves on itself.
 */
function useLeaveOnceSignedIn(standalone: boolean) {
  const session = useStore($session);
  // One navigation only: a second one would abort the first.
  const leaving = useRef(false);
  const signingIn = useRef(false);
  const leave = useCallback((how: 'assign' | 'replace') => {
    if (leaving.current) return;
    leaving.current = true;
    window.location[how](nextFromUrl());
  }, []);
  // Already signed in (or just signed in through a link or Google): go straight on.
  useEffect(() => {
    if (signingIn.current) return;
    if (standalone && !session.loading && session.user && session.profile) leave('replace');
  }, [standalone, session.loading, session.user, session.profile, leave]);
  return { leave, signingIn };
}

/** Sign-in, sign-up and password recovery, with Google as the other way in. */
function AuthScreen({ standalone = false }: Props) {
  const session = useStore($session);
  const [mode, setMode] = useState<Mode>('login');
  const { form, setForm, formRef, hydrated } = useAuthFormFields();
  const [notice, setNotice] = useState('');
  const {
    errors: fieldErrors,
    formError: error,
    busy,
    onSubmit,
    setErrors: setFieldErrors,
    setFormError: setError,
  } = useForm({
    send: () => {
      if (mode !== 'login') setNotice('');
      if (mode === 'login') return onLogin();
      if (mode === 'register') return onRegister();
      return onForgot();
    },
  });
  const { leave, signingIn } = useLeaveOnceSignedIn(standalone);

  const set = (key: keyof AuthFormFields) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  /** Signed in: on the auth page, on to the next page with the notice; in the account, the notice. */
  function welcome() {
    if (standalone) {
      flashToast(AUTH_MESSAGES.welcome);
      leave('assign');
    } else {
      notify(AUTH_MESSAGES.welcome, 'success');
    }
  }

  function switchMode(next: Mode) {
    setMode(next);
    setError('');
    setFieldErrors({});
    if (next !== 'login') setNotice('');
  }

  async function onLogin() {
    signingIn.current = true;
    const result = await signIn(form.email, form.password);
    if (!result.ok) {
      signingIn.current = false;
      return result.message;
    }
    welcome();
  }

  async function onRegister() {
    const result = await registerShopper(form, standalone ? nextFromUrl() : '/account');
    if (result.status === 'invalid') return { formError: result.message, fieldErrors: result.fieldErrors };
    if (result.status === 'error') {
      notify(AUTH_MESSAGES.signUpToast, 'error');
      return result.message;
    }
    if (result.status === 'confirm') {
      notify(AUTH_MESSAGES.checkEmailToast, 'info');
      setMode('login');
      setNotice(AUTH_MESSAGES.checkEmail);
      setForm((f) => ({ ...EMPTY, email: f.email }));
      return;
    }
    // Signed in straight away (projects without e-mail confirmation).
    welcome();
  }

  async function onForgot() {
    const result = await requestPasswordReset(form.email);
    if (!result.ok) return result.message;
    setNotice(result.message);
  }

  async function onGoogle() {
    setError('');
    const result = await continueWithGoogle(standalone ? nextFromUrl() : '/account');
    if (result.error) setError(result.error);
  }

  if (standalone && session.user && session.profile) {
    return (
      <p className="acct-loading" role="status">
        {AUTH_FORM_TEXT.alreadySignedIn}
      </p>
    );
  }

  return (
    <div className="acct-auth card" data-hydrated={hydrated}>
      <AuthHeader mode={mode} notice={notice} onSwitch={switchMode} />
      <form ref={formRef} data-prebuilt onSubmit={onSubmit} noValidate aria-busy={busy}>
        <AuthFields mode={mode} form={form} set={set} fieldErrors={fieldErrors} />
        {mode === 'forgot' && <p className="muted">{AUTH_FORM_TEXT.forgotHint}</p>}
        {error && (
          <p className="acct-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-primary acct-wide" disabled={busy}>
          {busy ? AUTH_FORM_TEXT.processing : MODE_TEXT[mode].submit}
        </button>
      </form>
      <AuthLinks mode={mode} onSwitch={switchMode} onGoogle={() => void onGoogle()} />
    </div>
  );
}

/** The fields of the mode: the registration's own, the e-mail, and the password unless recovering. */
function AuthFields({
  mode,
  form,
  set,
  fieldErrors,
}: {
  mode: Mode;
  form: AuthFormFields;
  set: (key: keyof AuthFormFields) => (value: string) => void;
  fieldErrors: Record<string, string>;
}) {
  return (
    <>
      {mode === 'register' && (
        <>
          <TextField
            label={AUTH_FORM_TEXT.username}
            name="username"
            value={form.username}
            onChange={set('username')}
            autoComplete="username"
            autoCapitalize="none"
            error={fieldErrors.username}
          />
          <div className="acct-row">
            <TextField label={AUTH_FORM_TEXT.name} name="name" value={form.name} onChange={set('name')} autoComplete="given-name" error={fieldErrors.name} />
            <TextField
              label={AUTH_FORM_TEXT.lastname}
              name="lastname"
              value={form.lastname}
              onChange={set('lastname')}
              autoComplete="family-name"
              error={fieldErrors.lastname}
            />
          </div>
          <TextField
            label={AUTH_FORM_TEXT.phone}
            name="phone"
            type="tel"
            value={form.phone}
            onChange={set('phone')}
            autoComplete="tel"
            error={fieldErrors.phone}
          />
        </>
      )}
      <TextField
        label={AUTH_FORM_TEXT.email}
        name="email"
        type="email"
        value={form.email}
        onChange={set('email')}
        autoComplete="email"
        error={fieldErrors.email}
      />
      {mode !== 'forgot' && (
        <PasswordField
          label={AUTH_FORM_TEXT.password}
          value={form.password}
          onChange={set('password')}
          autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
          meter={mode === 'register'}
          error={fieldErrors.password}
        />
      )}
    </>
  );
}

/** 'Olvidaste tu contraseña?' / 'Volver a iniciar sesión', and Google as the other way in. */
function AuthLinks({ mode, onSwitch, onGoogle }: { mode: Mode; onSwitch: (mode: Mode) => void; onGoogle: () => void }) {
  return (
    <>
      {mode === 'login' && (
        <button type="button" className="acct-link" onClick={() => onSwitch('forgot')}>
          {AUTH_FORM_TEXT.forgotLink}
        </button>
      )}
      {mode === 'forgot' && (
        <button type="button" className="acct-link" onClick={() => onSwitch('login')}>
          {AUTH_FORM_TEXT.backToLogin}
        </button>
      )}
      {mode !== 'forgot' && (
        <>
          <p className="acct-divider">
            <span>{AUTH_FORM_TEXT.or}</span>
          </p>
          <button type="button" className="btn btn-outline acct-wide" onClick={onGoogle}>
            {AUTH_FORM_TEXT.google}
          </button>
        </>
      )}
    </>
  );
}

/** The login / register switch, the title and the notice ('Revisa tu correo', …). */
function AuthHeader({ mode, notice, onSwitch }: { mode: Mode; notice: string; onSwitch: (mode: Mode) => void }) {
  return (
    <>
      {mode !== 'forgot' && (
        <div className="acct-auth-tabs" role="group" aria-label={AUTH_FORM_TEXT.modeLabel}>
          <button type="button" aria-pressed={mode === 'login'} onClick={() => onSwitch('login')}>
            {AUTH_FORM_TEXT.loginTab}
          </button>
          <button type="button" aria-pressed={mode === 'register'} onClick={() => onSwitch('register')}>
            {AUTH_FORM_TEXT.registerTab}
          </button>
        </div>
      )}
      <h1 className="acct-auth-title">{MODE_TEXT[mode].title}</h1>
      {notice && (
        <p className="acct-note acct-note-info" role="status">
          {notice}
        </p>
      )}
    </>
  );
}
