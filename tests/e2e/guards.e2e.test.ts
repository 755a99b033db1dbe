import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../support/factories';
import { startTestServer, type TestServer } from '../support/server';
import { ShellPage } from './pages/shell.page';
import { launchBrowser, newPage, signInAs } from './support/browser';

let server: TestServer;
let browser: Browser;
const users: Record<'member' | 'staff' | 'dev' | 'admin' | 'client', TestUser> = {} as never;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  for (const role of ['member', 'staff', 'dev', 'admin', 'client'] as const) {
    users[role] = await server.createUser({ role });
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function visitAs(role: keyof typeof users | null, path: string) {
  const { context, page } = await newPage(browser);
  if (role) await signInAs(context, server, users[role]);
  await page.goto(`${server.url}${path}`);
  return { context, page, shell: new ShellPage(page) };
}

describe('route guards of §2', () => {
  it('sends a visitor without a token to /signin', async () => {
    for (const path of ['/', '/dashboard', '/profile', '/member']) {
      const { context, page } = await visitAs(null, path);
      await page.waitForURL(`${server.url}/signin`);
      await context.close();
    }
  });

  it('sends a role that is not allowed to /not-authorized', async () => {
    const cases: [keyof typeof users, string][] = [
      ['member', '/member'],
      ['member', '/phonenumber'],
      ['staff', '/whatsapp'],
      ['admin', '/withdraw'],
      ['admin', '/monitor/local'],
      ['member', '/campaigns'],
      ['staff', '/campaigns/1'],
      ['client', '/member'],
      ['client', '/whatsapp'],
      ['client', '/settings'],
      ['dev', '/no-such-thing'],
    ];
    for (const [role, path] of cases) {
      const { context, page } = await visitAs(role, path);
      if (path === '/no-such-thing') {
        await expect.poll(() => page.getByText('ERROR', { exact: true }).count()).toBe(1);
      } else {
        await page.waitForURL(`${server.url}/not-authorized`);
        // the URL changes before the screen renders: wait for the heading itself
        await expect.poll(() => page.getByRole('heading', { name: 'Not Authorized' }).count()).toBe(1);
      }
      await context.close();
    }
  });

  it('lets each role open its own screens, with title and Home breadcrumb', async () => {
    const cases: [keyof typeof users, string, string][] = [
      ['member', '/whatsapp', 'Daftar Whatsapp'],
      ['member', '/withdraw', 'Withdraw'],
      ['staff', '/generator/list', 'Daftar Generator'],
      ['admin', '/phonenumber', 'Daftar Phone Number'],
      ['admin', '/settings', 'Form Pengaturan'],
      ['dev', '/monitor/realtime', 'Monitor Realtime'],
      ['dev', '/withdraw', 'Withdraw'],
      ['client', '/campaigns', 'Campaigns'],
      ['admin', '/campaigns', 'Campaigns'],
    ];
    for (const [role, path, title] of cases) {
      const { context, page, shell } = await visitAs(role, path);
      await expect.poll(() => shell.title().textContent(), { message: `${role} ${path}` }).toBe(title);
      expect(
        await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Home' }).count(),
      ).toBe(1);
      expect(await page.title()).toBe(`${title} | WA Blaster`);
      await context.close();
    }
  });

  it('redirects staff from / to the withdrawal requests', async () => {
    const { context, page } = await visitAs('staff', '/');
    await page.waitForURL(`${server.url}/withdraw/requested?page=1`);
    await context.close();
  });

  it('redirects a client from / to their campaigns', async () => {
    const { context, page } = await visitAs('client', '/');
    await page.waitForURL(`${server.url}/campaigns`);
    await context.close();
  });

  it('shows each role its own menu', async () => {
    const admin = await visitAs('admin', '/');
    await expect
      .poll(() => admin.shell.menuLabels())
      .toEqual([
        'Dashboard',
        'Daftar Phone Number',
        'Daftar Member',
        'Daftar Generator',
        'Daftar Validator',
        'Template Pesan',
        'Campaigns',
        'Permintaan Withdraw',
        'Laporan',
        'Bonus',
        'Pengguna Referal',
        'Level',
        'Proxy',
        'Pengaturan',
        'Profile',
      ]);
    await admin.context.close();
    const member = await visitAs('member', '/');
    await expect
      .poll(() => member.shell.menuLabels())
      .toEqual([
        'Dashboard',
        'Akun Whatsapp',
        'Laporan',
        'Withdraw',
        'Bonus',
        'Pengguna Referal',
        'Profile',
        'Telegram',
      ]);
    const telegram = member.page.getByRole('link', { name: 'Telegram' });
    expect(await telegram.getAttribute('target')).toBe('_blank');
    expect(await member.page.getByTestId('page-title').textContent()).toBe('Dashboard Member');
    await member.context.close();
    const staff = await visitAs('staff', '/profile');
    await expect
      .poll(() => staff.shell.menuLabels())
      .toEqual(['Permintaan Withdraw', 'Laporan', 'Daftar Generator', 'Daftar Validator', 'Profile']);
    await staff.context.close();
    const client = await visitAs('client', '/profile');
    await expect.poll(() => client.shell.menuLabels()).toEqual(['Campaigns', 'Profile']);
    await client.context.close();
  });

  it('logs out silently when the server refuses the stored token', async () => {
    const { context, page } = await newPage(browser);
    await context.addCookies([
      { name: 'authToken', value: 'forged.token.value', url: server.url },
      {
        name: 'user',
        value: encodeURIComponent(
          JSON.stringify({ id: 1, firstname: 'X', lastname: 'Y', email: 'x@y.z', role: 'admin' }),
        ),
        url: server.url,
      },
    ]);
    await page.goto(`${server.url}/dashboard`);
    await page.waitForURL(`${server.url}/signin`);
    const names = (await context.cookies()).map((c) => c.name);
    expect(names).not.toContain('authToken');
    expect(names).not.toContain('user');
    await context.close();
  });
});
