import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../support/factories';
import { startTestServer, type TestServer } from '../support/server';
import { ShellPage } from './pages/shell.page';
import { launchBrowser, newPage, signInAs } from './support/browser';

let server: TestServer;
let browser: Browser;
let admin: TestUser;
let dev: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  admin = await server.createUser({ role: 'admin', firstname: 'Ayu' });
  dev = await server.createUser({ role: 'dev' });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the signed-in shell', () => {
  it('keeps the theme across a reload, light by default', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, admin);
    await page.goto(`${server.url}/dashboard`);
    const shell = new ShellPage(page);
    await shell.title().waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    await shell.toggleTheme();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await page.reload();
    await shell.title().waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await shell.toggleTheme();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await context.close();
  });

  it('shows the not-found page for any undefined path, with a way home', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/this/does/not/exist`);
    // the screen is loaded when first shown (issue 23): wait for it
    await page.getByText('ERROR', { exact: true }).waitFor();
    expect(await page.getByText('ERROR', { exact: true }).count()).toBe(1);
    expect(await page.getByText("We can't seem to find the page you are looking for!").count()).toBe(1);
    await page.getByRole('link', { name: 'Back to Home Page' }).click();
    await page.waitForURL(`${server.url}/signin`);
    await context.close();
  });

  it('focuses the search with Ctrl+K and jumps to a screen by name', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, admin);
    await page.goto(`${server.url}/dashboard`);
    const shell = new ShellPage(page);
    await shell.title().waitFor();
    await page.keyboard.press('Control+k');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('header-search');
    await page.keyboard.type('proxy');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/proxy`);
    await context.close();
  });

  it('collapses the sidebar to 90 px on desktop and opens it as a drawer on a phone', async () => {
    const { context, page } = await newPage(browser, 1280, 800);
    await signInAs(context, server, admin);
    await page.goto(`${server.url}/dashboard`);
    const shell = new ShellPage(page);
    await shell.title().waitFor();
    const width = () => shell.sidebar().evaluate((el) => el.getBoundingClientRect().width);
    await expect.poll(width, { timeout: 5000 }).toBe(290);
    await shell.toggleSidebar();
    await page.mouse.move(900, 400);
    await expect.poll(width, { timeout: 5000 }).toBe(90);
    await shell.toggleSidebar();
    await expect.poll(width, { timeout: 5000 }).toBe(290);

    await page.setViewportSize({ width: 390, height: 844 });
    const left = () => shell.sidebar().evaluate((el) => el.getBoundingClientRect().right);
    await expect.poll(left, { timeout: 5000 }).toBeLessThanOrEqual(0);
    await shell.toggleSidebar();
    await expect.poll(left, { timeout: 5000 }).toBeGreaterThan(200);
    // widening past the breakpoint resets the drawer flag
    await page.setViewportSize({ width: 1280, height: 800 });
    // let the page see the wide window (resize events are dispatched with the next frames) before
    // narrowing it again, or a busy machine folds both resizes into one
    await page.evaluate(
      () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50)))),
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(left, { timeout: 5000 }).toBeLessThanOrEqual(0);
    await context.close();
  });

  it('opens one submenu at a time and closes it when chosen again', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, dev);
    await page.goto(`${server.url}/dashboard`);
    const monitor = page.getByRole('button', { name: 'Monitor' });
    await monitor.click();
    expect(await monitor.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('link', { name: 'Realtime' }).click();
    await page.waitForURL(`${server.url}/monitor/realtime`);
    await monitor.click();
    expect(await monitor.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('link', { name: 'Realtime' }).count()).toBe(0);
    await context.close();
  });

  it('opens the profile edit modal from ?edit=true, saves, and shows the new name everywhere', async () => {
    const user = await server.createUser({ role: 'member', firstname: 'Lama' });
    const { context, page } = await newPage(browser);
    await signInAs(context, server, user);
    await page.goto(`${server.url}/profile?edit=true`);
    const form = page.getByTestId('profile-edit-form');
    await form.waitFor();
    expect(await form.evaluate((el) => el.getBoundingClientRect().height)).toBe(450);
    await page.fill('input[name=firstname]', 'Baru');
    await page.selectOption('select[name=account_bank]', 'MANDIRI');
    await page.fill('input[name=account_number]', '1234567890');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByText('Profil berhasil disimpan.').count()).toBe(1);
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Baru Tester');
    expect(await page.getByTestId('referral-link').inputValue()).toBe(
      `${server.url}/signup?referral=${user.referral_code}`,
    );
    await page.reload();
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Baru Tester');
    await page.goto(`${server.url}/profile?edit=1`);
    await form.waitFor();
    expect(await page.inputValue('input[name=account_number]')).toBe('1234567890');
    await context.close();
  });

  it('shows a field error from the server in the profile modal', async () => {
    const user = await server.createUser({ role: 'member' });
    const { context, page } = await newPage(browser);
    await signInAs(context, server, user);
    await page.goto(`${server.url}/profile?edit=true`);
    const form = page.getByTestId('profile-edit-form');
    await form.waitFor();
    // the modal's own fields (the API key card behind it asks for the current password too)
    await form.locator('input[name=email]').fill(admin.email);
    await form.locator('input[name=current_password]').fill(user.password);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByText('Error: Email is already registered.').count()).toBe(1);
    await context.close();
  });

  it('scrolls to the top on every route change', async () => {
    const { context, page } = await newPage(browser, 1280, 160);
    await signInAs(context, server, admin);
    await page.goto(`${server.url}/profile`);
    await page.getByTestId('profile-name').waitFor();
    await page.evaluate(() => window.scrollTo(0, 400));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await page.getByRole('link', { name: 'Daftar Member' }).click();
    await page.waitForURL(`${server.url}/member`);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await context.close();
  });

  it('signs out from the user menu', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, admin);
    await page.goto(`${server.url}/dashboard`);
    const shell = new ShellPage(page);
    await shell.openUserMenu();
    expect(await page.getByText(admin.email).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Edit profile' }).getAttribute('href')).toBe('/profile?edit=true');
    expect(await page.getByRole('link', { name: 'User Profile' }).getAttribute('href')).toBe('/profile');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(`${server.url}/signin`);
    expect((await context.cookies()).map((c) => c.name)).not.toContain('authToken');
    await context.close();
  });
});
