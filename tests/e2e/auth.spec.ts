import { test, expect as baseExpect, expectConsoleError } from './fixtures';
import AxeBuilder from '@axe-core/playwright';
import { AuthPage, SHOPPER, atPath, createConfirmedUser, mailboxLink, signInAs, uniqueEmail, uniqueUsername } from './pages/auth.ts';

// Each test signs in and waits on the local stack, which answers slowly while other suites
// share the 2 cores.
const expect = baseExpect.configure({ timeout: 10_000 });

test.describe.configure({ timeout: 60_000 });

test.describe('Inicio de sesión', () => {
  test('pide correo y contraseña, rechaza credenciales malas y entra con el correo normalizado', async ({ page }) => {
    expectConsoleError(page, /status of 400.*\/auth\/v1\/token/); // wrong credentials are refused on purpose
    const auth = new AuthPage(page);
    await auth.goto();
    await auth.login('', '');
    await expect(auth.alert).toHaveText('Ingresa correo y contraseña.');
    await auth.login(SHOPPER.email, '');
    await expect(auth.alert).toHaveText('Ingresa correo y contraseña.');

    await auth.login(SHOPPER.email, 'NoEsLaClave1!');
    await expect(auth.alert).toHaveText('Credenciales incorrectas.');
    await auth.login('nadie@demo.mx', 'Cliente123!');
    await expect(auth.alert).toHaveText('Credenciales incorrectas.');

    // Show/hide password.
    await auth.password.fill('secreta');
    await expect(auth.password).toHaveAttribute('type', 'password');
    await auth.main.getByRole('button', { name: 'Mostrar contraseña' }).click();
    await expect(auth.password).toHaveAttribute('type', 'text');
    await auth.main.getByRole('button', { name: 'Ocultar contraseña' }).click();
    await expect(auth.password).toHaveAttribute('type', 'password');

    await auth.login(`  ${SHOPPER.email.toUpperCase()}  `, SHOPPER.password);
    await page.waitForURL(atPath('/account'));
    await expect(page.getByTestId('toast').filter({ hasText: 'Bienvenido' })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Tu cuenta' })).toContainText(SHOPPER.email);
  });

  test('con sesión abierta sigue a /account o a la ruta interna de next, nunca a otro sitio', async ({ page }) => {
    await signInAs(page, SHOPPER.email, SHOPPER.password);
    await page.goto('/auth');
    await page.waitForURL(atPath('/account'));
    await page.goto(`/auth?next=${encodeURIComponent('/checkout/summary')}`);
    await page.waitForURL(atPath('/checkout/summary'));
    await page.goto(`/auth?next=${encodeURIComponent('https://ejemplo.com/robo')}`);
    await page.waitForURL(atPath('/account'));
    await page.goto(`/auth?next=${encodeURIComponent('//ejemplo.com')}`);
    await page.waitForURL(atPath('/account'));
    expect(new URL(page.url()).host).toBe(new URL(test.info().project.use.baseURL!).host);
  });
});

test.describe('Registro', () => {
  test('valida cada campo y detecta un nombre de usuario o un correo ya registrados', async ({ page }) => {
    const auth = new AuthPage(page);
    await auth.goto();
    const valid = {
      username: uniqueUsername('val'),
      email: uniqueEmail('val'),
      password: 'Segura123!',
      name: 'Val',
      lastname: 'Idación',
      phone: '55 1234 5678',
    };
    await auth.register({ ...valid, lastname: '' });
    await expect(auth.alert).toHaveText('Completa todos los campos.');
    await auth.register({ ...valid, email: 'sin-arroba' });
    await expect(auth.alert).toHaveText('Correo inválido.');
    await auth.register({ ...valid, phone: '12ab' });
    await expect(auth.alert).toHaveText('Teléfono inválido.');
    await auth.register({ ...valid, password: 'Corta1!' });
    await expect(auth.alert).toHaveText('La contraseña debe tener al menos 8 caracteres.');

    // The demo shopper's username, in other letter case: taken.
    await auth.register({ ...valid, username: 'AnaGarcia' });
    await expect(auth.alert).toHaveText('Ese nombre de usuario ya está en uso.');

    await auth.register({ ...valid, email: SHOPPER.email });
    await expect(auth.alert).toHaveText('Ese correo ya está registrado.');
    await expect(auth.toasts.filter({ hasText: 'No se pudo registrar' })).toBeVisible();
  });

  test('el medidor de seguridad sigue la escala, las etiquetas y los colores', async ({ page }) => {
    const auth = new AuthPage(page);
    await auth.goto();
    await auth.registerMode.click();
    const meter = page.getByTestId('password-strength');
    const cases = [
      ['', 'Débil', 'pink'],
      ['abc', 'Básica', 'pink'],
      ['abcdefgh', 'Aceptable', 'amber'],
      ['Abcdefgh', 'Fuerte', 'green'],
      ['Abcdefg1!', 'Robusta', 'green'],
    ] as const;
    for (const [password, label, color] of cases) {
      await auth.password.fill(password);
      await expect(meter).toContainText(label);
      await expect(meter).toHaveAttribute('data-color', color);
      await expect(page.getByRole('meter', { name: 'Seguridad de la contraseña' })).toHaveAttribute('aria-valuetext', label);
    }
  });

  test('alta con confirmación por correo: Revisa tu correo, enlace del buzón, cuenta verificada y nuevo inicio de sesión', async ({ page }) => {
    expectConsoleError(page, /status of 400.*\/auth\/v1\/token/); // signing in before confirming is refused on purpose
    const auth = new AuthPage(page);
    const email = uniqueEmail('alta');
    const username = uniqueUsername('alta');
    await auth.goto();
    await auth.register({ username, email, password: 'Nueva123!', name: 'Lucía', lastname: 'Pérez', phone: '+52 (55) 9876-5432' });
    await expect(auth.toasts.filter({ hasText: 'Revisa tu correo' })).toBeVisible();
    await expect(auth.loginMode).toHaveAttribute('aria-pressed', 'true');

    // Not confirmed yet: the password does not open a session.
    await auth.login(email, 'Nueva123!');
    await expect(auth.alert).toHaveText('Credenciales incorrectas.');

    const link = await mailboxLink(email, 'type=signup');
    await page.goto(link);
    await page.waitForURL(atPath('/account'));
    const sidebar = page.getByRole('complementary', { name: 'Tu cuenta' });
    await expect(sidebar).toContainText('Lucía Pérez');
    await expect(page.getByRole('tabpanel')).toContainText('Verificado');
    await expect(page.getByRole('tabpanel')).toContainText(username);

    await sidebar.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(auth.loginMode).toBeVisible();
    await signInAs(page, email, 'Nueva123!');
    await expect(sidebar).toContainText(email);
    // A new shopper is never an admin.
    await expect(page.getByRole('link', { name: 'Registrar producto' })).toHaveCount(0);
  });
});

test.describe('Recuperación y Google', () => {
  test('recupera la contraseña con el enlace del buzón', async ({ page }) => {
    expectConsoleError(page, /status of 400.*\/auth\/v1\/token/); // the old password is refused on purpose
    const user = await createConfirmedUser('recupera');
    const auth = new AuthPage(page);
    await auth.goto();
    await auth.main.getByRole('button', { name: 'Olvidaste tu contraseña?' }).click();
    const send = auth.main.getByRole('button', { name: 'Enviar enlace de recuperación' });
    await send.click();
    await expect(auth.alert).toHaveText('Escribe tu correo para enviarte el enlace de recuperación.');
    await auth.email.fill('no-es-correo');
    await send.click();
    await expect(auth.alert).toHaveText('Escribe tu correo para enviarte el enlace de recuperación.');
    await auth.email.fill(user.email);
    await send.click();
    await expect(auth.main.getByText('te enviamos un enlace')).toBeVisible();

    const link = await mailboxLink(user.email, 'type=recovery');
    await page.goto(link);
    await page.waitForURL(atPath('/auth/reset'));
    await page.getByRole('main').getByLabel('Nueva contraseña').fill('Otra1234!');
    await page.getByRole('main').getByLabel('Confirma la contraseña').fill('Otra1234!');
    await page.getByRole('button', { name: 'Guardar contraseña' }).click();
    await page.waitForURL(atPath('/account'));
    await expect(page.getByTestId('toast').filter({ hasText: 'Contraseña actualizada' })).toBeVisible();

    await page.getByRole('complementary', { name: 'Tu cuenta' }).getByRole('button', { name: 'Cerrar sesión' }).click();
    await auth.login(user.email, user.password);
    await expect(auth.alert).toHaveText('Credenciales incorrectas.');
    await auth.login(user.email, 'Otra1234!');
    await expect(page.getByRole('tablist', { name: 'Secciones de la cuenta' })).toBeVisible();
  });

  test('un enlace de recuperación inválido lleva a pedir otro', async ({ page }) => {
    await page.goto('/auth/reset#error=access_denied&error_code=otp_expired');
    await expect(page.getByRole('alert')).toContainText('no es válido o ya expiró');
    await expect(page.getByRole('main').getByRole('link', { name: 'Iniciar sesión' })).toHaveAttribute('href', '/auth');
  });

  test('Continuar con Google con la página local de Google', async ({ page }) => {
    const auth = new AuthPage(page);
    const email = uniqueEmail('google');
    await auth.goto();
    await auth.main.getByRole('button', { name: 'Continuar con Google' }).click();
    await expect(page.getByRole('heading', { name: 'Continuar con Google' })).toBeVisible();
    await page.getByLabel('Nombre').fill('Gabriela Google');
    await page.getByLabel('Correo de Google').fill(email);
    await page.getByRole('button', { name: 'Continuar', exact: true }).click();
    await page.waitForURL(atPath('/account'));
    await expect(page.getByRole('complementary', { name: 'Tu cuenta' })).toContainText(email);
  });

  test('/auth sin violaciones graves de accesibilidad', async ({ page }) => {
    const auth = new AuthPage(page);
    await auth.goto();
    for (const mode of ['login', 'register'] as const) {
      if (mode === 'register') await auth.registerMode.click();
      const results = await new AxeBuilder({ page }).include('main').analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    }
  });
});
