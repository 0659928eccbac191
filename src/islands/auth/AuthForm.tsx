import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { $session, AUTH_MESSAGES, continueWithGoogle, initSession, registerShopper, requestPasswordReset, safeNextPath, signIn } from '../../stores/session.ts';
import { flashToast, notify } from '../../stores/toast.ts';
import PasswordField from './PasswordField.tsx';
import { usePrebuiltForm } from '../prebuilt.ts';
import Toaster from '../account/Toaster.tsx';
import '../account/account.css';

type Mode = 'login' | 'register' | 'forgot';

interface Props {
  /**
   * On the /auth page: leave for `?next=` (or /account) once signed in. Inside the account page
   * the page itself switches to the account when the session appears.
   */
  standalone?: boolean;
}

interface TextFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  autoComplete?: string;
  error?: string;
}

function TextField({ label, name, value, onChange, type = 'text', autoComplete, error }: TextFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        className="input"
        type={type}
        autoComplete={autoComplete}
        value={value}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}

const EMPTY = { username: '', email: '', password: '', name: '', lastname: '', phone: '' };

function nextFromUrl(): string {
  return safeNextPath(new URLSearchParams(window.location.search).get('next'));
}

/** Sign-in, sign-up and password recovery; on its own page it brings its notices along. */
export default function AuthForm(props: Props) {
  return props.standalone ? (
    <>
      <AuthScreen {...props} />
      <Toaster />
    </>
  ) : (
    <AuthScreen {...props} />
  );
}

/** Sign-in, sign-up and password recovery, with Google as the other way in. */
function AuthScreen({ standalone = false }: Props) {
  const session = useStore($session);
  const [mode, setMode] = useState<Mode>('login');
  const [form, setForm] = useState(EMPTY);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  // Marks the form as interactive.
  const [hydrated, setHydrated] = useState(false);
  // What was typed (and a submit pressed) before hydration is kept and acted on
  // (src/islands/prebuilt.ts).
  const formRef = useRef<HTMLFormElement>(null);
  usePrebuiltForm(formRef, form, (name, typed) => setForm((f) => ({ ...f, [name]: typed })));

  useEffect(() => {
    setHydrated(true);
    initSession();
  }, []);

  // One navigation only: a second one would abort the first.
  const leaving = useRef(false);
  // While this form signs in, it moves on itself (with the welcome notice), not the effect below.
  const signingIn = useRef(false);
  function leave(how: 'assign' | 'replace') {
    if (leaving.current) return;
    leaving.current = true;
    window.location[how](nextFromUrl());
  }

  // Already signed in (or just signed in through a link or Google): go straight on.
  useEffect(() => {
    if (signingIn.current) return;
    if (standalone && !session.loading && session.user && session.profile) leave('replace');
  }, [standalone, session.loading, session.user, session.profile]);

  const set = (key: keyof typeof EMPTY) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

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
      setError(result.message);
      return;
    }
    if (standalone) {
      flashToast(AUTH_MESSAGES.welcome);
      leave('assign');
    } else {
      notify(AUTH_MESSAGES.welcome, 'success');
    }
  }

  async function onRegister() {
    const result = await registerShopper(form, standalone ? nextFromUrl() : '/account');
    if (result.status === 'invalid') {
      setError(result.message);
      setFieldErrors(result.fieldErrors);
      return;
    }
    if (result.status === 'error') {
      setError(result.message);
      notify(AUTH_MESSAGES.signUpToast, 'error');
      return;
    }
    if (result.status === 'confirm') {
      notify(AUTH_MESSAGES.checkEmailToast, 'info');
      setMode('login');
      setNotice(AUTH_MESSAGES.checkEmail);
      setForm((f) => ({ ...EMPTY, email: f.email }));
      return;
    }
    // Signed in straight away (projects without e-mail confirmation).
    if (standalone) {
      flashToast(AUTH_MESSAGES.welcome);
      leave('assign');
    } else {
      notify(AUTH_MESSAGES.welcome, 'success');
    }
  }

  async function onForgot() {
    const result = await requestPasswordReset(form.email);
    if (result.ok) setNotice(result.message);
    else setError(result.message);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError('');
    setFieldErrors({});
    if (mode !== 'login') setNotice('');
    try {
      if (mode === 'login') await onLogin();
      else if (mode === 'register') await onRegister();
      else await onForgot();
    } finally {
      setBusy(false);
    }
  }

  async function onGoogle() {
    setError('');
    const result = await continueWithGoogle(standalone ? nextFromUrl() : '/account');
    if (result.error) setError(result.error);
  }

  if (standalone && session.user && session.profile) {
    return (
      <p className="acct-loading" role="status">
        Ya iniciaste sesión. Redirigiendo…
      </p>
    );
  }

  const title = mode === 'login' ? 'Inicia sesión' : mode === 'register' ? 'Crea tu cuenta' : 'Recupera tu contraseña';
  const submitLabel =
    mode === 'login' ? 'Iniciar sesión' : mode === 'register' ? 'Crear cuenta' : 'Enviar enlace de recuperación';

  return (
    <div className="acct-auth card" data-hydrated={hydrated}>
      {mode !== 'forgot' && (
        <div className="acct-auth-tabs" role="group" aria-label="Modo">
          <button type="button" aria-pressed={mode === 'login'} onClick={() => switchMode('login')}>
            Inicia sesión
          </button>
          <button type="button" aria-pressed={mode === 'register'} onClick={() => switchMode('register')}>
            Crea tu cuenta
          </button>
        </div>
      )}
      <h1 className="acct-auth-title">{title}</h1>
      {notice && (
        <p className="acct-note acct-note-info" role="status">
          {notice}
        </p>
      )}
      <form ref={formRef} data-prebuilt onSubmit={onSubmit} noValidate aria-busy={busy}>
        {mode === 'register' && (
          <>
            <TextField label="Nombre de usuario" name="username" value={form.username} onChange={set('username')} autoComplete="username" error={fieldErrors.username} />
            <div className="acct-row">
              <TextField label="Nombre" name="name" value={form.name} onChange={set('name')} autoComplete="given-name" error={fieldErrors.name} />
              <TextField label="Apellido" name="lastname" value={form.lastname} onChange={set('lastname')} autoComplete="family-name" error={fieldErrors.lastname} />
            </div>
            <TextField label="Teléfono" name="phone" type="tel" value={form.phone} onChange={set('phone')} autoComplete="tel" error={fieldErrors.phone} />
          </>
        )}
        <TextField label="Correo electrónico" name="email" type="email" value={form.email} onChange={set('email')} autoComplete="email" error={fieldErrors.email} />
        {mode !== 'forgot' && (
          <PasswordField
            label="Contraseña"
            value={form.password}
            onChange={set('password')}
            autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
            meter={mode === 'register'}
            error={fieldErrors.password}
          />
        )}
        {mode === 'forgot' && <p className="muted">Te enviaremos un enlace para crear una nueva contraseña.</p>}
        {error && (
          <p className="acct-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-primary acct-wide" disabled={busy}>
          {busy ? 'Procesando…' : submitLabel}
        </button>
      </form>
      {mode === 'login' && (
        <button type="button" className="acct-link" onClick={() => switchMode('forgot')}>
          Olvidaste tu contraseña?
        </button>
      )}
      {mode === 'forgot' && (
        <button type="button" className="acct-link" onClick={() => switchMode('login')}>
          Volver a iniciar sesión
        </button>
      )}
      {mode !== 'forgot' && (
        <>
          <p className="acct-divider">
            <span>o</span>
          </p>
          <button type="button" className="btn btn-outline acct-wide" onClick={onGoogle}>
            Continuar con Google
          </button>
        </>
      )}
    </div>
  );
}
