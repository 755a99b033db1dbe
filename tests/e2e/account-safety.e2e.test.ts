import { SAFETY_TEXTS } from '@wa/shared';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { allowBlastingAnyTime } from '../support/db';
import type { TestUser } from '../support/factories';
import { openAs, useBrowser } from './support/browser';
import { type EngineTestServer, startEngineTestServer } from './support/engine-server';

/**
 * Account safety on the screens (docs/PRODUCT.md §4 Account safety): the rows' cap, pause and
 * window texts, rule #1 from the monitor's simulator buttons, the opt-out filter, the settings
 * section and the spintax sample.
 */

let server: EngineTestServer;
let member: TestUser;
let admin: TestUser;
let dev: TestUser;
let acc: { id: number; clientid: string; phonenumber: string };
const browser = useBrowser();

const row = (page: Page) => page.locator(`tr[data-row="${acc.id}"]`);
const eventually = <T>(fn: () => T | Promise<T>, timeout = 10_000) => expect.poll(fn, { timeout });
const liveReady = (page: Page) => page.locator('[data-live="on"]').first().waitFor();
const settle = () => server.db.execute(sql`update whatsapp_accounts set status = 'idle' where id = ${acc.id}`);

beforeAll(async () => {
  server = await startEngineTestServer({ pairDelayMs: 300 });
  member = await server.createUser({ role: 'member' });
  admin = await server.createUser({ role: 'admin' });
  dev = await server.createUser({ role: 'dev' });
  await server.db.execute(sql`update users set blast_interval_min = 0, blast_interval_max = 0 where id = ${member.id}`);
  await server.db.execute(sql`update settings set interval_min = 0, interval_max = 0`);
  await server.db.execute(
    sql`insert into message_templates (text, text_wa, status) values ('x', 'Halo {name}', 'active')`,
  );
  acc = await server.connect(member);
});
afterAll(async () => {
  await server?.close();
});

describe('the account rows', () => {
  it('show the day against the cap, and the pause after a failure streak live with its reason; admin lifts it', async () => {
    await server.db.execute(sql`update settings set daily_cap_start = 30, daily_cap_growth = 20, daily_cap_max = 500,
      fail_streak_pause = 3`);
    await server.db.execute(sql`insert into phone_numbers (number, name)
      select '62855' || lpad(g::text, 8, '0'), 'T' from generate_series(1, 6) g`);
    const { page } = await openAs(browser, server, member, '/whatsapp');
    await liveReady(page);
    await eventually(() => row(page).getByTestId('wa-cap').textContent()).toBe('Hari ini 0/30');

    await server.api(dev, 'POST', `/dev/sim/${acc.clientid}`, { action: 'fail', count: 3, kind: 'generic' });
    await row(page).getByRole('button', { name: 'Start Blast' }).click();
    await eventually(() => row(page).getByTestId('wa-paused').textContent()).toContain(SAFETY_TEXTS.failStreak(3));
    expect(await row(page).getByTestId('wa-paused').textContent()).toMatch(/^Dijeda sampai /);
    expect(await row(page).getByTestId('wa-cap').textContent()).toBe('Hari ini 3/30');
    // members do not lift it
    expect(await row(page).getByRole('button', { name: 'Cabut jeda' }).count()).toBe(0);

    const adminView = await openAs(browser, server, admin, '/member/whatsapp');
    await row(adminView.page).getByRole('button', { name: 'Cabut jeda' }).click();
    await eventually(() => row(adminView.page).getByTestId('wa-paused').count()).toBe(0);
    // the member's open list hears it
    await eventually(() => row(page).getByTestId('wa-paused').count()).toBe(0);
  });

  it('say until when a blast outside the send window waits', async () => {
    await settle();
    // a window that opens in two hours (Asia/Jakarta)
    const hour =
      (Number(
        new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Jakarta', hour: '2-digit', hourCycle: 'h23' }).format(
          new Date(),
        ),
      ) +
        2) %
      24;
    const hh = String(hour).padStart(2, '0');
    await server.db.execute(
      sql`update settings set send_window_start = ${`${hh}:00`}, send_window_end = ${`${hh}:30`}`,
    );
    await server.db.execute(sql`insert into phone_numbers (number, name) values ('6285599990001', 'W')`);
    const { page } = await openAs(browser, server, member, '/whatsapp');
    await liveReady(page);
    await row(page).getByRole('button', { name: 'Start Blast' }).click();
    await eventually(() => row(page).getByTestId('wa-state').textContent()).toMatch(/^Menunggu sampai .+\.\.\.$/);
    await row(page).getByRole('button', { name: 'Stop Blast' }).click();
    await page.getByRole('button', { name: 'Stop Blast!' }).click();
    await eventually(() => row(page).getByRole('button', { name: 'Start Blast' }).count()).toBe(1);
    await allowBlastingAnyTime(server.db);
  });

  it('rule #1: the monitor deletes the last blast message and the member sees the suspension live', async () => {
    await settle();
    await server.db.execute(sql`insert into phone_numbers (number, name) values ('6285599990002', 'R')`);
    const memberView = await openAs(browser, server, member, '/whatsapp');
    await liveReady(memberView.page);
    await server.api(member, 'POST', '/admin/whatsapp/start-blasting', { whatsappClientId: acc.clientid });
    await eventually(() => row(memberView.page).getByRole('button', { name: 'Start Blast' }).count()).toBe(1);

    const monitor = await openAs(browser, server, dev, `/monitor/remote?id=${acc.clientid}`);
    await monitor.page.getByRole('button', { name: 'Hapus pesan terakhir' }).click();
    await eventually(() =>
      monitor.page.getByRole('status').filter({ hasText: 'Hapus pesan terakhir: ok' }).count(),
    ).toBe(1);
    await eventually(() => row(memberView.page).getByTestId('wa-state').textContent()).toBe('Suspended (1x)');
    await eventually(() =>
      row(memberView.page).getByText('Aturan #1 Jangan hapus pesan terkirim. Silahkan hubungi Admin/CS').count(),
    ).toBe(1);
  });
});

describe('opt-outs, settings and templates', () => {
  it('the phone number list filters opted-out numbers', async () => {
    await server.db.execute(
      sql`insert into phone_numbers (number, name, status) values ('6285577770001', 'Keluar', 'optout')`,
    );
    const { page } = await openAs(browser, server, admin, '/phonenumber');
    await page.locator('#pn-status-filter').selectOption('optout');
    await eventually(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').first().textContent()).toContain('6285577770001');
    expect(await page.locator('tbody tr').first().textContent()).toContain('optout');
  });

  it('Pengaturan has the Keamanan Akun section and saves it', async () => {
    // the values a fresh install has (the suite's own are beyond what the form accepts)
    await server.db.execute(
      sql`update settings set daily_cap_start = 30, daily_cap_max = 500, check_budget_daily = 1000`,
    );
    const { page } = await openAs(browser, server, admin, '/settings');
    await page.getByText('Keamanan Akun').waitFor();
    await page.locator('input[name=send_window_start]').fill('07:30');
    await page.locator('input[name=daily_cap_max]').fill('400');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await page.getByText('Pengaturan berhasil disimpan.').waitFor();
    await page.getByRole('button', { name: 'OK' }).click();
    const [s] = await rows<{ send_window_start: string; daily_cap_max: number }>(
      server.db,
      sql`select send_window_start, daily_cap_max from settings`,
    );
    expect(s).toEqual({ send_window_start: '07:30', daily_cap_max: 400 });
    await page.locator('input[name=send_window_end]').fill('25:00');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await eventually(() => page.getByText('Send window end must be a time like 08:00.').count()).toBe(1);
  });

  it('the template form shows a sample of a caption with choices', async () => {
    const { page } = await openAs(browser, server, admin, '/message/create');
    const editor = page.locator('[contenteditable=true]').first();
    await editor.click();
    await page.keyboard.type('{Halo|Hai} {name}');
    await eventually(() => page.getByTestId('spintax-sample').textContent()).toMatch(/^(Halo|Hai) Budi$/);
  });
});
