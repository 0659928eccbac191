/** Sign-in, registration and passwords. */

/** The signed-in session and the login (src/stores/session.ts, src/stores/auth.ts signIn), as the specification quotes them. */
export const AUTH_SESSION_MESSAGES = {
  badCredentials: 'Credenciales incorrectas.',
  signInFailed: 'No se pudo iniciar sesión.',
  profileMissing: 'No se encontró el perfil de usuario.',
  sessionUnavailable: 'Sesión no disponible.',
  loadFailed: 'No se pudo cargar tu cuenta. Intenta nuevamente.',
} as const;

/** Sign-up, password recovery, Google and the welcome (src/stores/auth.ts, src/islands/auth/AuthForm.tsx). */
export const AUTH_MESSAGES = {
  emailTaken: 'Ese correo ya está registrado.',
  signUpFailed: 'No se pudo registrar.',
  noUser: 'No se obtuvo el usuario tras el registro.',
  profileFailed: 'Error al guardar el perfil.',
  signUpToast: 'No se pudo registrar',
  checkEmailToast: 'Revisa tu correo',
  checkEmail: 'Te enviamos un correo para confirmar tu cuenta. Abre el enlace y después inicia sesión.',
  resetFailed: 'No se pudo enviar el enlace de recuperación.',
  resetSent: 'Si el correo está registrado, te enviamos un enlace para crear una nueva contraseña.',
  googleFailed: 'No se pudo iniciar sesión.',
  welcome: 'Bienvenido',
} as const;

/** The password change (account) and the recovery link's new password (src/stores/auth.ts changePassword). */
export const AUTH_PASSWORD_MESSAGES = {
  mismatch: 'Las contraseñas no coinciden.',
  failed: 'No se pudo actualizar la contraseña.',
  saved: 'Contraseña actualizada',
} as const;

/** The sign-in, sign-up and recovery form (src/islands/auth/AuthForm.tsx). */
export const AUTH_FORM_TEXT = {
  /** Each mode's title and submit button. */
  modes: {
    login: { title: 'Inicia sesión', submit: 'Iniciar sesión' },
    register: { title: 'Crea tu cuenta', submit: 'Crear cuenta' },
    forgot: { title: 'Recupera tu contraseña', submit: 'Enviar enlace de recuperación' },
  },
  alreadySignedIn: 'Ya iniciaste sesión. Redirigiendo…',
  forgotHint: 'Te enviaremos un enlace para crear una nueva contraseña.',
  processing: 'Procesando…',
  username: 'Nombre de usuario',
  name: 'Nombre',
  lastname: 'Apellido',
  phone: 'Teléfono',
  email: 'Correo electrónico',
  password: 'Contraseña',
  forgotLink: 'Olvidaste tu contraseña?',
  backToLogin: 'Volver a iniciar sesión',
  /** Between the form and Google. */
  or: 'o',
  google: 'Continuar con Google',
  modeLabel: 'Modo',
  loginTab: 'Inicia sesión',
  registerTab: 'Crea tu cuenta',
} as const;

/** A new password twice (src/islands/auth/NewPasswordForm.tsx: the account and the recovery page). */
export const AUTH_NEW_PASSWORD_TEXT = {
  save: 'Guardar contraseña',
  password: 'Nueva contraseña',
  confirm: 'Confirma la contraseña',
} as const;

/** A password field, its show/hide button and its strength meter (src/islands/auth/PasswordField.tsx, src/domain/password.ts). */
export const AUTH_PASSWORD_FIELD_TEXT = {
  show: 'Mostrar',
  hide: 'Ocultar',
  /** After 'Mostrar' / 'Ocultar', for screen readers only (hence the leading space). */
  toggleSuffix: ' contraseña',
  meterLabel: 'Seguridad de la contraseña',
  /** 'Seguridad: Fuerte'. */
  strength: (label: string) => `Seguridad: ${label}`,
  /** The strength meter's labels, score 0 to 4. */
  strengthLabels: ['Débil', 'Básica', 'Aceptable', 'Fuerte', 'Robusta'],
} as const;

/** Where the recovery e-mail's link lands (src/islands/auth/ResetPassword.tsx). */
export const AUTH_RESET_TEXT = {
  invalidLink: 'El enlace de recuperación no es válido o ya expiró. Solicita uno nuevo.',
  loading: 'Cargando…',
  title: 'Nueva contraseña',
  signIn: 'Iniciar sesión',
  /** 'Escribe la nueva contraseña de ana@demo.mx.' */
  prompt: (email: string) => `Escribe la nueva contraseña de ${email}.`,
} as const;

/** The auth pages' titles and description (src/pages/auth/). */
export const AUTH_PAGE_TEXT = {
  signInTitle: 'Inicia sesión',
  signInDescription: 'Inicia sesión o crea tu cuenta.',
  resetTitle: 'Nueva contraseña',
} as const;
