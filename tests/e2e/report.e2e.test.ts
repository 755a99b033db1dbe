import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEZONE } from '../../core/src/config';
import { rows } from '../../core/src/db/client';
import { rebuildDaily } from '../../core/src/ledger/daily';
import { publishToUser } from '../../core/src/realtime/publish';
import type { TestUser } from '../support/factories';
import { startTestServer, type TestServer } from '../support/server';
import { launchBrowser, newPage, signInAs } from './support/browser';
import { type EngineTestServer, startEngineTestServer } from './support/engine-server';

/**
 * Issue 11 in Chromium: the report per day and account with its totals and export, a member held
 * to their own rows, the dashboards' charts in the dark theme, and the payout setting.
 */

let server: TestServer;
let browser: Browser;
let admin: TestUser;
let staff: TestUser;
let wulan: TestUser;
let oki: TestUser;
const ACCOUNT = { wulan1: 0, wulan2: 0, oki: 0 };

/** One hour after (today) or before (yesterday) local midnight in the server's zone. */
const at = (when: 'today' | 'yesterday') => {
  const midnight = sql`(date_trunc('day', now() at time zone ${DEFAULT_TIMEZONE}::text) at time zone ${DEFAULT_TIMEZONE}::text)`;
  // today: as late as possible without being in the future, so the hourly chart shows it
  return when === 'today'
    ? sql`greatest(${midnight}, now() - interval '1 minute')`
    : sql`${midnight} - interval '1 hour'`;
};

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  admin = await server.createUser({ role: 'admin' });
  staff = await server.createUser({ role: 'staff' });
  wulan = await server.createUser({ role: 'member', firstname: 'Wulan', lastname: 'Sari' });
  oki = await server.createUser({ role: 'member', firstname: 'Oki', lastname: 'Putra' });
  const db = server.db;
  const account = async (user: TestUser, n: number) => {
    const [row] = await rows<{ id: number }>(
      db,
      sql`insert into whatsapp_accounts (clientid, user_id, phonenumber, state)
        values (${`id-1760000000000-${n}`}, ${user.id}, ${`628120000000${n}`}, 'connected') returning id`,
    );
    return Number(row.id);
  };
  ACCOUNT.wulan1 = await account(wulan, 1);
  ACCOUNT.wulan2 = await account(wulan, 2);
  ACCOUNT.oki = await account(oki, 4);
  const log = (user: TestUser, wa: number, target: string, status: string, when: 'today' | 'yesterday', fee = 0) =>
    db.execute(sql`insert into message_logs (user_id, whatsapp_id, target, status, fee, created_at, sent_at,
        delivered_at, read_at)
      values (${user.id}, ${wa}, ${target}, ${status}, ${fee}, ${at(when)},
        case when ${status} in ('sent', 'delivered', 'read') then ${at(when)} end,
        case when ${status} in ('delivered', 'read') then ${at(when)} end,
        case when ${status} = 'read' then ${at(when)} end)`);
  // Wulan's first account today: 4 accepted (3 delivered, 1 of them read), 1 failed, Rp 10.000
  await log(wulan, ACCOUNT.wulan1, '6281300000001', 'delivered', 'today', 2500);
  await log(wulan, ACCOUNT.wulan1, '6281300000002', 'delivered', 'today', 2500);
  await log(wulan, ACCOUNT.wulan1, '6281300000003', 'read', 'today', 2500);
  await log(wulan, ACCOUNT.wulan1, '6281300000004', 'sent', 'today', 2500);
  await log(wulan, ACCOUNT.wulan1, '6281300000005', 'failed', 'today');
  // ... and yesterday 1 delivered; her second account today 2 failed
  await log(wulan, ACCOUNT.wulan1, '6281300000006', 'delivered', 'yesterday', 2500);
  await log(wulan, ACCOUNT.wulan2, '6281300000007', 'failed', 'today');
  await log(wulan, ACCOUNT.wulan2, '6281300000008', 'failed', 'today');
  // Oki: 1 read, Rp 1.000
  await log(oki, ACCOUNT.oki, '6281300000009', 'read', 'today', 1000);
  // a target of Wulan's first account asked to stop today
  await db.execute(sql`insert into incoming_messages (whatsapp_id, sender, text, optout, created_at)
    values (${ACCOUNT.wulan1}, '6281300000002', 'STOP', true, ${at('today')})`);
  await rebuildDaily(db, DEFAULT_TIMEZONE);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Records every CSP violation the page reports, from before its first script. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp ?? []);
}

async function openAs(user: TestUser, path: string, theme: 'light' | 'dark' = 'light') {
  const { context, page } = await newPage(browser);
  const violations = await watchViolations(page);
  await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
  await signInAs(context, server, user);
  await page.goto(`${server.url}${path}`);
  return { context, page, violations };
}

const reportRows = (page: Page) => page.getByTestId('report-table').locator('tbody tr[data-row]');
const total = (page: Page, key: string) => page.locator(`[data-total=${key}]`).textContent();
const totals = async (page: Page) =>
  Object.fromEntries(
    await Promise.all(
      ['sent', 'delivered', 'read', 'failed', 'optout', 'income'].map(async (k) => [k, await total(page, k)]),
    ),
  );

describe('the report screen', () => {
  it("shows admin every member's day rows with the totals, and filters by member and account", async () => {
    const { context, page, violations } = await openAs(admin, '/report');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Laporan');
    await expect.poll(() => reportRows(page).count()).toBe(4);
    await expect
      .poll(() => totals(page))
      .toEqual({ sent: '6', delivered: '5', read: '2', failed: '3', optout: '1', income: 'Rp 13.500' });
    const first = await page.getByTestId('report-table').locator('tbody').textContent();
    for (const text of ['6281200000001', '6281200000002', '6281200000004', 'Wulan Sari', 'Oki Putra']) {
      expect(first).toContain(text);
    }
    // the dates default to the last 7 days, as the server chose them
    const from = await page.inputValue('#report-from');
    const to = await page.inputValue('#report-to');
    expect((Date.parse(to) - Date.parse(from)) / 86_400_000).toBe(6);
    // one member, then one of her accounts
    await page.selectOption('#report-member', String(wulan.id));
    await expect.poll(() => reportRows(page).count()).toBe(3);
    await expect.poll(() => total(page, 'income')).toBe('Rp 12.500');
    await page.selectOption('#report-account', String(ACCOUNT.wulan2));
    await expect.poll(() => reportRows(page).count()).toBe(1);
    await expect.poll(() => total(page, 'failed')).toBe('2');
    expect(new URL(page.url()).searchParams.get('wa')).toBe(String(ACCOUNT.wulan2));
    // only today: yesterday's row goes
    await page.selectOption('#report-account', '');
    await page.fill('#report-from', to);
    await expect.poll(() => reportRows(page).count()).toBe(2);
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it('exports the rows of the filter as report.csv through the API', async () => {
    const { context, page } = await openAs(admin, `/report?user=${wulan.id}`);
    await expect.poll(() => reportRows(page).count()).toBe(3);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('report.csv');
    const lines = readFileSync((await download.path()) as string, 'utf8')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('date,user_id,whatsapp_id,phonenumber,sent,delivered,read,failed,optout,income');
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).every((l) => l.split(',')[1] === String(wulan.id))).toBe(true);
    expect(lines.some((l) => l.endsWith(',4,3,1,1,1,10000'))).toBe(true);
    await context.close();
  });

  it('shows a member only their own rows, whatever the link asks, and no member select', async () => {
    const { context, page } = await openAs(wulan, `/report?user=${oki.id}&wa=${ACCOUNT.oki}`);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Laporan');
    // an account of somebody else is refused by the server
    await expect.poll(() => page.getByRole('alert').count()).toBeGreaterThan(0);
    await page.goto(`${server.url}/report?user=${oki.id}`);
    await expect.poll(() => reportRows(page).count()).toBe(3);
    expect(await page.getByTestId('report-table').textContent()).not.toContain('6281200000004');
    expect(await page.locator('#report-member').count()).toBe(0);
    await expect
      .poll(() => totals(page))
      .toEqual({ sent: '5', delivered: '4', read: '1', failed: '3', optout: '1', income: 'Rp 12.500' });
    // her own accounts only in the account select
    await expect
      .poll(() => page.locator('#report-account option').allTextContents())
      .toEqual(['Semua akun', '6281200000001', '6281200000002']);
    // and her own messages only in the log
    const log = page.getByTestId('message-log');
    await expect.poll(() => log.locator('tbody tr[data-row]').count()).toBe(8);
    expect(await log.textContent()).not.toContain('6281300000009');
    await context.close();
  });

  it('lets staff read everybody’s report', async () => {
    const { context, page } = await openAs(staff, '/report');
    await expect.poll(() => reportRows(page).count()).toBe(4);
    await expect.poll(() => total(page, 'income')).toBe('Rp 13.500');
    // staff choose among the members the report shows
    await expect.poll(() => page.locator('#report-member option').count()).toBe(3);
    await context.close();
  });

  it('pages the message log with a status filter and a search by target', async () => {
    const { context, page } = await openAs(admin, '/report');
    const log = page.getByTestId('message-log');
    const rows = log.locator('tbody tr[data-row]');
    await expect.poll(() => rows.count()).toBe(9);
    await page.selectOption('#log-status-filter', 'failed');
    await expect.poll(() => rows.count()).toBe(3);
    expect(
      await log.locator('[data-status]').evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))),
    ).toEqual(['failed', 'failed', 'failed']);
    expect(new URL(page.url()).searchParams.get('status')).toBe('failed');
    await page.selectOption('#log-status-filter', '');
    await log.getByRole('textbox', { name: 'Cari nomor target' }).fill('6281300000009');
    await log.getByRole('button', { name: 'Cari' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Dibaca');
    expect(await rows.first().textContent()).toContain('Rp 1.000');
    // the report above kept its rows
    expect(await reportRows(page).count()).toBe(4);
    await context.close();
  });
});

describe('the dashboard charts', () => {
  it('draws the hourly and per-account charts on the admin dashboard in the dark theme, without a CSP violation', async () => {
    const { context, page, violations } = await openAs(admin, '/dashboard', 'dark');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Dashboard Admin');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    for (const id of ['chart-hourly', 'chart-accounts']) {
      const chart = page.getByTestId(id);
      // the canvas says the theme it was last drawn in
      await expect.poll(() => chart.locator('canvas').getAttribute('data-theme')).toBe('dark');
      expect(await chart.getAttribute('data-theme')).toBe('dark');
    }
    // the member-only income chart is not on the admin's dashboard
    expect(await page.getByTestId('chart-income').count()).toBe(0);
    // one bar per account that sent this week (Wulan's second account only failed)
    await expect.poll(() => page.getByTestId('chart-accounts').getAttribute('data-points')).toBe('2');
    // the theme toggle redraws in light
    await page.getByTestId('theme-toggle').click();
    await expect
      .poll(() => page.getByTestId('chart-hourly').locator('canvas').getAttribute('data-theme'))
      .toBe('light');
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it("draws the member's own charts and income per day", async () => {
    const { context, page, violations } = await openAs(wulan, '/dashboard', 'dark');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Dashboard Member');
    for (const id of ['chart-hourly', 'chart-accounts', 'chart-income']) {
      await expect.poll(() => page.getByTestId(id).locator('canvas').getAttribute('data-theme')).toBe('dark');
    }
    // her two accounts, of which only the first sent
    await expect.poll(() => page.getByTestId('chart-accounts').getAttribute('data-points')).toBe('1');
    expect(await violations()).toEqual([]);
    await context.close();
  });
});

describe('the dashboard charts, live', () => {
  let live: EngineTestServer;
  beforeAll(async () => {
    live = await startEngineTestServer();
  });
  afterAll(async () => {
    await live?.close();
  });

  it('refetch once, about 5 s after a burst of receipts, however many arrive', async () => {
    const user = await live.createUser({ role: 'member', firstname: 'Lina' });
    const { context, page } = await newPage(browser);
    await signInAs(context, live, user);
    const fetched: number[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/admin/report/charts') fetched.push(Date.now());
    });
    let probed = false;
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        if (String(f.payload).includes('"id-probe"')) probed = true;
      }),
    );
    await page.goto(`${live.url}/dashboard`);
    await expect.poll(() => page.getByTestId('chart-hourly').locator('canvas').count()).toBe(1);
    // the hub joins the socket to the member's channel as it opens, and the page may mount twice:
    // an event the charts ignore, published until the page's socket hears it
    await expect
      .poll(
        async () => {
          await publishToUser(live.bus, user.id, 'waiting', {
            deviceId: 'id-probe',
            waitTime: 1,
            value: '6281200000000',
          });
          return probed;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    const opened = fetched.length;
    expect(opened).toBeGreaterThan(0);
    const burst = Date.now();
    const receipt = {
      deviceId: 'id-1760000000000-9',
      count_success: 1,
      count_fail: 0,
      income: 0,
      delivered: 1,
      read: 0,
    };
    for (let i = 0; i < 5; i++) await publishToUser(live.bus, user.id, 'count_synced', receipt);
    await publishToUser(live.bus, user.id, 'count_success', { deviceId: receipt.deviceId, value: 2, income: 0 });
    await expect.poll(() => fetched.length, { timeout: 10_000 }).toBe(opened + 1);
    expect(fetched[opened] - burst).toBeGreaterThanOrEqual(4_500);
    // a window in which no second refetch may come
    await new Promise((r) => setTimeout(r, 1500));
    expect(fetched).toHaveLength(opened + 1);
    await context.close();
  });
});

describe('the payout setting', () => {
  it('saves payout_on and the undelivered window with the rest of the settings form', async () => {
    const { context, page } = await openAs(admin, '/settings');
    await page.locator('#payout_on').waitFor();
    expect(await page.inputValue('#payout_on')).toBe('accepted');
    await page.selectOption('#payout_on', 'delivered');
    await expect.poll(() => page.inputValue('#payout_on')).toBe('delivered');
    await page.fill('input[name=undelivered_window_hours]', '0');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await expect.poll(() => page.locator('[data-field-error=undelivered_window_hours]').count()).toBe(1);
    await page.fill('input[name=undelivered_window_hours]', '48');
    // the refusal kept every other field as the admin left it
    expect(await page.inputValue('#payout_on')).toBe('delivered');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await expect.poll(() => page.getByText('Pengaturan berhasil disimpan.').count()).toBe(1);
    const [saved] = await rows<{ payout_on: string; undelivered_window_hours: number }>(
      server.db,
      sql`select payout_on, undelivered_window_hours from settings where id = 1`,
    );
    expect(saved).toEqual({ payout_on: 'delivered', undelivered_window_hours: 48 });
    await page.reload();
    await page.locator('#payout_on').waitFor();
    expect(await page.inputValue('#payout_on')).toBe('delivered');
    expect(await page.inputValue('input[name=undelivered_window_hours]')).toBe('48');
    await context.close();
  });
});
