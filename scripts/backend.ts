/**
 * `npm run backend` (and the stack `npm start` runs): the embedded, Supabase-compatible local
 * stack of packages/local-supabase with the shop's configuration: its brand, its Spanish auth
 * e-mails, its demo accounts and its supabase/ folder. The tests start the stack with the same
 * configuration (`SHOP_STACK`).
 *
 *   npm run backend             start on http://127.0.0.1:54321 with data in .data/
 *   npm run backend -- --reset  wipe .data/ first
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, emailLayout, type EmailTemplates, type StartOptions } from 'local-supabase';
import { BRAND } from '~/domain/brand.ts';
import { DEMO_ADMIN, DEMO_SEED_PATH, DEMO_SHOPPER } from './seed/constants.ts';
import { ensureDemoPhotos } from './seed/photos.ts';

const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const FALLBACK = 'Si el botón no funciona, copia este enlace en tu navegador:';

/** The Spanish e-mails the auth server sends, branded as the shop. */
export const SHOP_EMAILS: EmailTemplates = {
  confirmation(link, brand) {
    const subject = `Confirma tu cuenta en ${brand}`;
    const intro = `¡Gracias por registrarte en ${brand}! Confirma tu correo para activar tu cuenta.`;
    const outro = 'Si no creaste una cuenta, ignora este correo. El enlace vence en 24 horas.';
    const signature = `— El equipo de ${brand}`;
    return {
      subject,
      html: emailLayout({ title: subject, intro, button: 'Confirmar mi cuenta', link, outro, fallback: FALLBACK, signature }),
      text: `${intro}\n\nConfirma tu cuenta aquí: ${link}\n\n${outro}\n\n${signature}`,
    };
  },
  recovery(link, brand) {
    const subject = `Restablece tu contraseña de ${brand}`;
    const intro = 'Recibimos una solicitud para restablecer tu contraseña. Usa el enlace para crear una nueva.';
    const outro = 'Si no lo solicitaste, ignora este correo; tu contraseña no cambiará. El enlace vence en 1 hora.';
    const signature = `— El equipo de ${brand}`;
    return {
      subject,
      html: emailLayout({ title: 'Restablece tu contraseña', intro, button: 'Restablecer contraseña', link, outro, fallback: FALLBACK, signature }),
      text: `${intro}\n\nRestablece tu contraseña aquí: ${link}\n\n${outro}\n\n${signature}`,
    };
  },
  emailChange(link, newEmail, brand) {
    const subject = `Confirma tu nuevo correo en ${brand}`;
    const intro = `Confirma que quieres usar ${newEmail} como el correo de tu cuenta.`;
    const outro = 'Si no lo solicitaste, ignora este correo.';
    const signature = `— El equipo de ${brand}`;
    return {
      subject,
      html: emailLayout({ title: subject, intro, button: 'Confirmar nuevo correo', link, outro, fallback: FALLBACK, signature }),
      text: `${intro}\n\nConfírmalo aquí: ${link}\n\n${outro}\n\n${signature}`,
    };
  },
};

/** The shop's configuration of the local stack. */
export const SHOP_STACK = {
  rootDir: ROOT_DIR,
  project: {
    migrationsDir: path.join(ROOT_DIR, 'supabase', 'migrations'),
    seedFile: path.join(ROOT_DIR, 'supabase', 'seed.sql'),
    localSeedDir: path.dirname(path.join(ROOT_DIR, DEMO_SEED_PATH)),
    storageDir: path.join(ROOT_DIR, 'supabase', 'storage'),
  },
  brand: BRAND.name,
  emails: SHOP_EMAILS,
  demoAccounts: [
    { email: DEMO_SHOPPER.email, password: DEMO_SHOPPER.password, role: 'cliente' },
    { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password, role: 'admin' },
  ],
} satisfies StartOptions;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // The demo's photos and their copies are made once per checkout, before the storage seed is copied.
  const made = await ensureDemoPhotos(SHOP_STACK.project.storageDir);
  if (made > 0) console.log(`backend: ${made} demo photos made with their copies`);
  cli(SHOP_STACK);
}
