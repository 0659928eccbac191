/** The Spanish e-mails the auth server sends, branded as the shop. */
import { SHOP_BRAND, escapeHtml } from '../mailbox.ts';

export interface Email {
  subject: string;
  html: string;
  text: string;
}

function layout(title: string, intro: string, button: string, link: string, outro: string): Email['html'] {
  const href = escapeHtml(link);
  return `<div style="font-family:Arial,sans-serif;max-width:560px;margin:0 auto;color:#1b1b1b">
<h1 style="font-size:20px">${escapeHtml(title)}</h1>
<p>${escapeHtml(intro)}</p>
<p><a href="${href}" style="display:inline-block;background:#0b57d0;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(button)}</a></p>
<p style="font-size:13px;color:#555">Si el botón no funciona, copia este enlace en tu navegador:<br><a href="${href}">${href}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(outro)}</p>
<p style="font-size:13px;color:#555">— El equipo de ${escapeHtml(SHOP_BRAND)}</p>
</div>`;
}

/** The e-mail that confirms a new account. */
export function confirmationEmail(link: string): Email {
  const subject = `Confirma tu cuenta en ${SHOP_BRAND}`;
  const intro = `¡Gracias por registrarte en ${SHOP_BRAND}! Confirma tu correo para activar tu cuenta.`;
  const outro = 'Si no creaste una cuenta, ignora este correo. El enlace vence en 24 horas.';
  return {
    subject,
    html: layout(subject, intro, 'Confirmar mi cuenta', link, outro),
    text: `${intro}\n\nConfirma tu cuenta aquí: ${link}\n\n${outro}\n\n— El equipo de ${SHOP_BRAND}`,
  };
}

/** The e-mail with the link to set a new password. */
export function recoveryEmail(link: string): Email {
  const subject = `Restablece tu contraseña de ${SHOP_BRAND}`;
  const intro = 'Recibimos una solicitud para restablecer tu contraseña. Usa el enlace para crear una nueva.';
  const outro = 'Si no lo solicitaste, ignora este correo; tu contraseña no cambiará. El enlace vence en 1 hora.';
  return {
    subject,
    html: layout('Restablece tu contraseña', intro, 'Restablecer contraseña', link, outro),
    text: `${intro}\n\nRestablece tu contraseña aquí: ${link}\n\n${outro}\n\n— El equipo de ${SHOP_BRAND}`,
  };
}

/** The e-mail that confirms a change of address, sent to the new address. */
export function emailChangeEmail(link: string, newEmail: string): Email {
  const subject = `Confirma tu nuevo correo en ${SHOP_BRAND}`;
  const intro = `Confirma que quieres usar ${newEmail} como el correo de tu cuenta.`;
  const outro = 'Si no lo solicitaste, ignora este correo.';
  return {
    subject,
    html: layout(subject, intro, 'Confirmar nuevo correo', link, outro),
    text: `${intro}\n\nConfírmalo aquí: ${link}\n\n${outro}\n\n— El equipo de ${SHOP_BRAND}`,
  };
}
