import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildDaily } from '../../core/src/ledger/daily';
import type { TestUser } from '../support/factories';
import { startTestServer, type TestServer } from '../support/server';
import { SignInPage } from './pages/sign-in.page';
import { launchBrowser, newPage, signInAs } from './support/browser';

/** §2 Dashboard in Chromium: a member's figures as rupiah and counts, the admin's global figures. */

let server: TestServer;
let browser: Browser;
let admin: TestUser;
let dev: TestUser;
let member: TestUser;
let other: TestUser;

const BANNER = 'Promo akhir bulan: fee blast naik jadi Rp 60 per pesan!';

/** One second after (today) or before (yesterday) local midnight in the server's zone. */
const at = (when: 'today' | 'yesterday') => {
  const midnight = sql`(date_trunc('day', now() at time zone 'Asia/Jakarta') at time zone 'Asia/Jakarta')`;
  return when === 'today' ? sql`${midnight} + interval '1 second'` : sql`${midnight} - interval '1 second'`;
};

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  admin = await server.createUser({ role: 'admin' });
  dev = await server.createUser({ role: 'dev' });
  const referrer = await server.createUser({ role: 'member', firstname: 'Rudi' });
  member = await server.createUser({ role: 'member', firstname: 'Wulan', referrerId: referrer.id });
  other = await server.createUser({ role: 'member', firstname: 'Oki' });
  const db = server.db;
  await db.execute(sql`update settings set info = ${BANNER} where id = 1`);
  await db.execute(sql`insert into whatsapp_accounts (clientid, user_id, phonenumber, state) values
    ('id-1760000000000-1', ${member.id}, '6281200000001', 'connected'),
    ('id-1760000000000-2', ${member.id}, '6281200000002', 'connected'),
    ('id-1760000000000-3', ${member.id}, '6281200000003', 'loggedOut'),
    ('id-1760000000000-4', ${other.id}, '6281200000004', 'connected')`);
  const log = (u: TestUser, status: string, when: 'today' | 'yesterday', fee = 0, referralFee = 0) =>
    db.execute(sql`insert into message_logs (user_id, target, status, fee, referrer_id, referral_fee, created_at)
      values (${u.id}, '6281399999999', ${status}, ${fee}, ${referralFee ? referrer.id : null}, ${referralFee}, ${at(when)})`);
  await log(member, 'sent', 'today', 2500, 250);
  await log(member, 'sent', 'today', 2500, 250);
  await log(member, 'failed', 'today');
  await log(member, 'pending', 'today', 2500, 250);
  await log(member, 'sent', 'yesterday', 2500, 250);
  await log(other, 'sent', 'today', 1000);
  await log(other, 'failed', 'yesterday');
  await log(other, 'failed', 'yesterday');
  await rebuildDaily(db, 'Asia/Jakarta');
  await db.execute(sql`insert into bonuses (user_id, admin_id, nominal, reason)
    values (${member.id}, ${admin.id}, 1000000, 'Juara blast')`);
  await db.execute(sql`insert into withdrawals (user_id, nominal, status)
    values (${member.id}, 10000, 'accepted'), (${member.id}, 50000, 'rejected')`);
  await db.execute(sql`insert into proxies (value, count_use) values
    ('10.0.0.1:8080', 0), ('10.0.0.2:8080', 0), ('10.0.0.3:8080', 0), ('10.0.0.4:8080', 2)`);
  await db.execute(sql`insert into phone_numbers (number, status, last_sent) values
    ('6281500000001', 'active', null), ('6281500000002', 'active', null), ('6281500000003', 'active', null),
    ('6281500000004', 'active', null), ('6281500000005', 'active', now())`);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const figure = (page: Page, testId: string) => page.getByTestId(testId).textContent();

/** The member's figures as the seeded rows give them. */
async function expectMemberFigures(page: Page) {
  await expect.poll(() => figure(page, 'stat-wa-active-value')).toBe('2');
  await expect.poll(() => figure(page, 'stat-wa-inactive-value')).toBe('1');
  await expect.poll(() => figure(page, 'stat-blast-success-value')).toBe('3');
  await expect.poll(() => figure(page, 'stat-blast-fail-value')).toBe('1');
  // two paid sends today; the pending one does not pay
  await expect.poll(() => figure(page, 'stat-today-income-value')).toBe('Rp 5.000');
  // income 7.500 + bonus 1.000.000 − accepted withdrawal 10.000 (the rejected one is given back)
  await expect.poll(() => figure(page, 'stat-balance-value')).toBe('Rp 997.500');
  await expect.poll(() => figure(page, 'stat-total-bonus-value')).toBe('Rp 1.000.000');
}

describe('member dashboard', () => {
  it('greets the member, scrolls the info banner and shows the figures, money as rupiah', async () => {
    const { context, page } = await newPage(browser, 1280, 800, 'no-preference');
    await signInAs(context, server, member);
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Dashboard Member');
    await expect.poll(() => page.getByTestId('greeting').textContent()).toBe('Hai, Wulan');
    await expect.poll(() => page.getByTestId('marquee').textContent()).toBe(BANNER);
    expect(await page.getByTestId('marquee').getAttribute('data-speed')).toBe('50');
    // the text moves
    const x = () =>
      page
        .getByTestId('marquee')
        .locator('span')
        .evaluate((el) => el.getBoundingClientRect().x);
    const before = await x();
    await expect.poll(x).not.toBe(before);
    for (const label of [
      'WhatsApp Aktif',
      'WhatsApp Tidak Aktif',
      'Blast Berhasil',
      'Blast Gagal',
      'Pendapatan Hari Ini',
      'Sisa Saldo',
      'Total Bonus',
    ]) {
      expect(await page.getByText(label, { exact: true }).count(), label).toBe(1);
    }
    await expectMemberFigures(page);
    // the admin-only figures are not on the member's screen
    expect(await page.getByText('Proxy Belum Dipakai').count()).toBe(0);
    await context.close();
  });

  it('shows the cached figures at once when the API is slow or down, and fits 390 px', async () => {
    const { context, page } = await newPage(browser, 390, 844);
    await signInAs(context, server, member);
    await page.goto(`${server.url}/dashboard`);
    await expectMemberFigures(page);
    const cookie = (await context.cookies()).find((c) => c.name === 'analytics');
    const cached = JSON.parse(decodeURIComponent(cookie?.value ?? '{}'));
    expect(cached).toMatchObject({
      userId: member.id,
      whatsappCount: { connectedCount: 2, disconnectedCount: 1 },
      messageLogCount: { successCount: 3, failCount: 1 },
      todayIncome: 5000,
      balance: 997500,
      totalBonus: 1000000,
    });
    // the cookie lives long (the app asks for ten years; Chromium keeps at most 400 days)
    expect(cookie?.expires).toBeGreaterThan(Date.now() / 1000 + 60 * 60 * 24 * 399);
    // now every counter call fails: the figures still show, from the cookie, with the error
    await page.route(/\/api\/admin\/(dashboard|messagelog|withdraw|bonus|whatsapp)\//, (route) => route.abort());
    await page.reload();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Internal server error');
    await expectMemberFigures(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });

  it('clears the cached figures when somebody signs in', async () => {
    const { context, page } = await newPage(browser);
    await context.addCookies([
      { name: 'analytics', value: encodeURIComponent('{"userId":1,"balance":5}'), url: server.url },
    ]);
    // hold the dashboard's calls so that only the cleared cookie can be seen
    await page.route(/\/api\/admin\//, () => {});
    const signIn = new SignInPage(page);
    await signIn.open(server.url);
    await signIn.fill(other.email, other.password);
    await signIn.submit();
    await page.waitForURL(`${server.url}/dashboard`);
    expect((await context.cookies()).find((c) => c.name === 'analytics')).toBeUndefined();
    await context.close();
  });
});

describe('admin dashboard', () => {
  it("shows every member's figures to admin, also at 390 px", async () => {
    const { context, page } = await newPage(browser, 390, 844);
    await signInAs(context, server, admin);
    await page.goto(`${server.url}/dashboard`);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Dashboard Admin');
    await expect.poll(() => figure(page, 'stat-proxy-unused-value')).toBe('3');
    await expect.poll(() => figure(page, 'stat-phone-unblasted-value')).toBe('4');
    // every member's accounts: three connected, one logged out
    await expect.poll(() => figure(page, 'stat-wa-active-value')).toBe('3');
    await expect.poll(() => figure(page, 'stat-wa-inactive-value')).toBe('1');
    await expect.poll(() => figure(page, 'stat-members-active-value')).toBe('2');
    await expect.poll(() => figure(page, 'stat-blast-today-berhasil')).toBe('3');
    await expect.poll(() => figure(page, 'stat-blast-today-gagal')).toBe('1');
    await expect.poll(() => figure(page, 'stat-blast-total-berhasil')).toBe('4');
    await expect.poll(() => figure(page, 'stat-blast-total-gagal')).toBe('3');
    for (const label of [
      'Proxy Belum Dipakai',
      'Nomor Belum Diblast',
      'Member Aktif',
      'Blast Hari Ini',
      'Total Blast',
    ]) {
      expect(await page.getByText(label, { exact: true }).count(), label).toBe(1);
    }
    expect(await page.getByTestId('greeting').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });

  it('gives dev the same view', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, dev);
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Dashboard Admin');
    await expect.poll(() => figure(page, 'stat-blast-total-berhasil')).toBe('4');
    await expect.poll(() => figure(page, 'stat-wa-active-value')).toBe('3');
    await context.close();
  });
});
