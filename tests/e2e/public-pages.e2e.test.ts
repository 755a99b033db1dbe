import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useUsers } from '../support/factories';
import { useTestServer } from '../support/server';
import { SettingsPage } from './pages/settings.page';
import { SignInPage } from './pages/sign-in.page';
import { SignUpPage } from './pages/sign-up.page';
import { newPage, openAs, signInAs, useBrowser } from './support/browser';

/**
 * Issue 20: sign-up's server field errors stay at their field, sign-in and sign-up say 'Internal
 * server error' when no answer comes (§8 Auth), and the public pages (/terms, /privacy-policy,
 * /reset-password) and the menu's Telegram link show what an admin keeps in Pengaturan.
 */
const server = useTestServer();
const browser = useBrowser();
const { admin, member } = useUsers(() => server.db, { admin: 'admin', member: 'member' });

/** §8 Auth: an exception in login or registration (no answer) */
const EXCEPTION = 'Internal server error';

/** Answers the next calls to `path` with `status` and a JSON body, as a failing server would. */
async function answer(page: Page, path: string, status: number, body: unknown) {
  await page.route(`**/api${path}`, (route) =>
    route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) }),
  );
}

describe('sign up: a server refusal that names a field (the taken e-mail: auth.e2e.test.ts)', () => {
  it('a {msg} alone that names a field shows at that field too', async () => {
    const { context, page } = await newPage(browser);
    await answer(page, '/auth/register', 400, { msg: 'Referral code not found.' });
    const signUp = new SignUpPage(page);
    await signUp.open(server.url);
    await signUp.fill({
      firstName: 'Dewi',
      lastName: 'L',
      email: `dewi${Date.now()}@example.test`,
      password: 'pw-12345',
      password2: 'pw-12345',
      referral_code: 'NOPE',
    });
    await signUp.agree();
    await signUp.submit();
    await expect.poll(() => signUp.fieldError('referral_code').allTextContents()).toEqual(['Referral code not found.']);
    expect(await signUp.alert().count()).toBe(0);
    await signUp.field('referral_code').fill('');
    await expect.poll(() => signUp.fieldError('referral_code').count()).toBe(0);
    expect(await signUp.alert().count()).toBe(0);
    await context.close();
  });
});

describe("§8 Auth: a sign-in or sign-up that gets no answer says 'Internal server error'; one answered, the server's text or the fallback", () => {
  it('sign-in: a 500, a 502 without a body, and no answer at all', async () => {
    const user = await server.createUser({ role: 'member' });
    const { context, page } = await newPage(browser);
    const signIn = new SignInPage(page);
    await signIn.open(server.url);
    const failures: [string, (route: Route) => Promise<void>, string][] = [
      [
        '500',
        (route) =>
          route.fulfill({ status: 500, contentType: 'application/json', body: '{"msg":"Internal server error"}' }),
        'Internal server error',
      ],
      [
        '502 without JSON',
        (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad Gateway</h1>' }),
        'Error signing in',
      ],
      ['no answer', (route) => route.abort('connectionrefused'), EXCEPTION],
    ];
    for (const [what, fail, text] of failures) {
      // the server's own refusal in between, so each failure's text is seen anew
      await signIn.fill(user.email, 'wrong-password');
      await signIn.submit();
      await expect.poll(() => signIn.alert().textContent(), { message: what }).toBe('Invalid email or password');
      await page.route('**/api/auth/login', fail);
      await signIn.fill(user.email, user.password);
      await signIn.submit();
      await expect.poll(() => signIn.alert().textContent(), { message: what }).toBe(text);
      await page.unroute('**/api/auth/login');
    }
    expect(page.url()).toBe(`${server.url}/signin`);
    await context.close();
  });

  it('sign-up: a 502 without a body and no answer at all', async () => {
    const { context, page } = await newPage(browser);
    const signUp = new SignUpPage(page);
    await signUp.open(server.url);
    await answer(page, '/auth/register', 502, null);
    await signUp.fill({
      firstName: 'Rina',
      lastName: 'W',
      email: `rina${Date.now()}@example.test`,
      password: 'pw-12345',
      password2: 'pw-12345',
    });
    await signUp.agree();
    await signUp.submit();
    await expect.poll(() => signUp.alert().textContent()).toBe('Failed to sign up. Please try again.');
    // the form's own terms message in between, so the next failure's text is seen anew
    await page.uncheck('input[name=agreeToTerms]');
    await signUp.submit();
    await expect.poll(() => signUp.alert().textContent()).toBe('You must agree to the terms and conditions.');
    await page.unroute('**/api/auth/register');
    await page.route('**/api/auth/register', (route) => route.abort('failed'));
    await signUp.agree();
    await signUp.submit();
    await expect.poll(() => signUp.alert().textContent()).toBe(EXCEPTION);
    await context.close();
  });
});

describe('public pages from Pengaturan', () => {
  const TERMS = 'Syarat khusus toko kami.\nPasal 1: dilarang spam.';
  const PRIVACY = 'Data Anda aman bersama kami.';
  const CONTACT = 'Telegram https://t.me/admin_wa atau WhatsApp 6281234567890';

  it('an admin saves the texts; /terms and /privacy-policy (from sign-up, in a new tab) and /reset-password show them', async () => {
    const { context, page } = await openAs(browser, server, admin, '/settings');
    const settings = new SettingsPage(page);
    await settings.open(server.url);
    await settings.fillPublic({ terms_text: TERMS, privacy_text: PRIVACY, support_contact: CONTACT });
    await settings.save();
    await context.close();

    const visitor = await newPage(browser);
    const signUp = new SignUpPage(visitor.page);
    await signUp.open(server.url);
    const [terms] = await Promise.all([
      visitor.context.waitForEvent('page'),
      visitor.page.getByRole('link', { name: 'Terms and Conditions' }).click(),
    ]);
    await terms.waitForURL(`${server.url}/terms`);
    await expect.poll(() => terms.getByTestId('public-text').textContent()).toBe(TERMS);
    expect(await terms.getByRole('heading', { name: 'Terms and Conditions' }).count()).toBe(1);
    const [privacy] = await Promise.all([
      visitor.context.waitForEvent('page'),
      visitor.page.getByRole('link', { name: 'Privacy Policy' }).click(),
    ]);
    await privacy.waitForURL(`${server.url}/privacy-policy`);
    await expect.poll(() => privacy.getByTestId('public-text').textContent()).toBe(PRIVACY);

    // Forgot password? → /reset-password: contact the admin, with the contact from settings
    const signIn = new SignInPage(visitor.page);
    await signIn.open(server.url);
    await visitor.page.getByRole('link', { name: 'Forgot password?' }).click();
    await visitor.page.waitForURL(`${server.url}/reset-password`);
    await expect.poll(() => visitor.page.getByTestId('support-contact').textContent()).toBe(CONTACT);
    expect(await visitor.page.getByRole('heading', { name: 'Forgot your password?' }).count()).toBe(1);
    expect(await visitor.page.getByRole('link', { name: 'https://t.me/admin_wa' }).getAttribute('href')).toBe(
      'https://t.me/admin_wa',
    );
    await visitor.context.close();
  });

  it('Pengaturan refuses a Telegram link that is not https, under the field', async () => {
    const { context, page } = await openAs(browser, server, admin, '/settings');
    const settings = new SettingsPage(page);
    await settings.open(server.url);
    await settings.fillPublic({ telegram_url: 'http://t.me/wablaster' });
    await page.getByRole('button', { name: 'Simpan' }).click();
    await expect
      .poll(() => settings.fieldError('telegram_url').textContent())
      .toBe('Telegram URL must be an https:// link, or empty to hide it.');
    await context.close();
  });

  it("the member menu's Telegram link follows settings and is hidden when empty", async () => {
    const telegram = (page: Page) =>
      page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Telegram' });
    const setTelegram = async (url: string) => {
      const { context, page } = await openAs(browser, server, admin, '/settings');
      const settings = new SettingsPage(page);
      await settings.open(server.url);
      await settings.fillPublic({ telegram_url: url });
      await settings.save();
      await context.close();
    };

    await setTelegram('https://t.me/wablaster_ops');
    const first = await openAs(browser, server, member, '/profile');
    await expect.poll(() => telegram(first.page).getAttribute('href')).toBe('https://t.me/wablaster_ops');
    expect(await telegram(first.page).getAttribute('target')).toBe('_blank');
    await first.context.close();

    await setTelegram('');
    const second = await newPage(browser);
    await signInAs(second.context, server, member);
    const read = second.page.waitForResponse((r) => r.url().endsWith('/api/settings/public') && r.ok());
    await second.page.goto(`${server.url}/profile`);
    expect(await (await read).json()).toMatchObject({ telegram_url: '' });
    // the menu has drawn what it read (two frames after the answer), Profile in it but not Telegram
    await second.page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Profile' }).waitFor();
    await second.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await telegram(second.page).count()).toBe(0);
    await second.context.close();
  });
});
