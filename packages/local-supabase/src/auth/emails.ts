/**
 * The e-mails the auth server sends. Their texts are configuration (`StartOptions.emails`): the
 * defaults below are neutral English; a project passes its own, in its language and brand. Their
 * types (`Email`, `EmailTemplates`) are configuration and live in config.ts.
 */
import type { EmailTemplates } from '../config.ts';
import { escapeHtml } from '../mailbox.ts';

/** The parts of the HTML layout the default e-mails use. */
export interface EmailLayoutParts {
  title: string;
  intro: string;
  /** The button's label. */
  button: string;
  link: string;
  outro: string;
  /** Shown before the bare link, for mail clients that break the button. */
  fallback: string;
  /** The closing line, e.g. '— The Acme team'. */
  signature: string;
}

/** A simple, inline-styled HTML e-mail: title, intro, a button to `link`, the link itself, outro. */
export function emailLayout(parts: EmailLayoutParts): string {
  const href = escapeHtml(parts.link);
  return `<div style="font-family:Arial,sans-serif;max-width:560px;margin:0 auto;color:#1b1b1b">
<h1 style="font-size:20px">${escapeHtml(parts.title)}</h1>
<p>${escapeHtml(parts.intro)}</p>
<p><a href="${href}" style="display:inline-block;background:#0b57d0;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(parts.button)}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(parts.fallback)}<br><a href="${href}">${href}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(parts.outro)}</p>
<p style="font-size:13px;color:#555">${escapeHtml(parts.signature)}</p>
</div>`;
}

const FALLBACK = 'If the button does not work, copy this link into your browser:';

/** Neutral English e-mails, used for whatever the project does not configure. */
export const defaultEmails: EmailTemplates = {
  confirmation(link, brand) {
    const subject = `Confirm your ${brand} account`;
    const intro = `Thanks for signing up to ${brand}! Confirm your e-mail address to activate your account.`;
    const outro = 'If you did not create an account, ignore this e-mail. The link expires in 24 hours.';
    const signature = `— The ${brand} team`;
    return {
      subject,
      html: emailLayout({ title: subject, intro, button: 'Confirm my account', link, outro, fallback: FALLBACK, signature }),
      text: `${intro}\n\nConfirm your account here: ${link}\n\n${outro}\n\n${signature}`,
    };
  },
  recovery(link, brand) {
    const subject = `Reset your ${brand} password`;
    const intro = 'We received a request to reset your password. Use the link to choose a new one.';
    const outro = 'If you did not ask for this, ignore this e-mail; your password will not change. The link expires in 1 hour.';
    const signature = `— The ${brand} team`;
    return {
      subject,
      html: emailLayout({ title: 'Reset your password', intro, button: 'Reset password', link, outro, fallback: FALLBACK, signature }),
      text: `${intro}\n\nReset your password here: ${link}\n\n${outro}\n\n${signature}`,
    };
  },
  emailChange(link, newEmail, brand) {
    const subject = `Confirm your new ${brand} e-mail address`;
    const intro = `Confirm that you want to use ${newEmail} as your account's e-mail address.`;
    const outro = 'If you did not ask for this, ignore this e-mail.';
    const signature = `— The ${brand} team`;
    return {
      subject,
      html: emailLayout({ title: subject, intro, button: 'Confirm new address', link, outro, fallback: FALLBACK, signature }),
      text: `${intro}\n\nConfirm it here: ${link}\n\n${outro}\n\n${signature}`,
    };
  },
};
