/**
 * The local stand-in for Google's consent screen: with no network, the stack serves a
 * small page where a test Google account is typed. It lists no accounts: the page must not
 * tell a visitor who has an account on this machine.
 */
import { createHash } from 'node:crypto';
import { escapeHtml } from '../mailbox.ts';

/** A stable, Google-like numeric account id for an e-mail (21 digits). */
export function googleAccountId(email: string): string {
  const digest = createHash('sha256').update(`google:${email.toLowerCase()}`).digest();
  let digits = '1';
  for (const byte of digest) {
    digits += String(byte % 10);
    if (digits.length === 21) break;
  }
  return digits;
}

/**
 * The sign-in page; `error` is shown above the form when the last attempt was refused, `brand` is
 * the application being signed in to.
 */
export function chooserPage(opts: { action: string; redirectTo: string; brand: string; error?: string; name?: string; email?: string }): string {
  const hidden = `<input type="hidden" name="redirect_to" value="${escapeHtml(opts.redirectTo)}">`;
  return `<!doctype html>
<html lang="es-MX">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Continuar con Google (cuenta de prueba local)</title>
<style>
body{font-family:system-ui,sans-serif;background:#f1f3f4;color:#202124;margin:0}
main{max-width:440px;margin:3rem auto;background:#fff;border:1px solid #dadce0;border-radius:8px;padding:2rem}
h1{font-size:1.4rem;margin:0 0 .5rem}
p{color:#5f6368}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input[type=text],input[type=email]{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #dadce0;border-radius:4px;font:inherit}
button.continuar{margin-top:1rem;background:#1a73e8;color:#fff;border:0;border-radius:4px;padding:.6rem 1.2rem;font:inherit;cursor:pointer}
.error{color:#b3261e;font-weight:600}
</style>
</head>
<body>
<main>
<h1>Continuar con Google</h1>
<p>Servidor local de pruebas: no se contacta a Google. Escribe el nombre y el correo de una cuenta de Google de prueba para entrar a ${escapeHtml(opts.brand)}. Solo entran las cuentas creadas en esta página; una cuenta con correo y contraseña no se enlaza.</p>
${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="${escapeHtml(opts.action)}">
${hidden}
<label for="name">Nombre</label>
<input id="name" name="name" type="text" autocomplete="name" required maxlength="100" value="${escapeHtml(opts.name ?? '')}">
<label for="email">Correo de Google</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${escapeHtml(opts.email ?? '')}">
<button type="submit" class="continuar">Continuar</button>
</form>
</main>
</body>
</html>`;
}
