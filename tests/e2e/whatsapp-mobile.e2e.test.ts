import { SAFETY_TEXTS } from '@wa/shared';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { allowBlastingAnyTime } from '../support/db';
import type { TestUser } from '../support/factories';
import { freshTargets } from '../support/safety';
import { until } from '../support/wait';
import { WhatsappListPage } from './pages/whatsapp-list.page';
import { newPage, signInAs, useBrowser } from './support/browser';
import { type EngineTestServer, startEngineTestServer } from './support/engine-server';
import { insideWidth } from './support/layout';

/**
 * 'Daftar Whatsapp' on a phone (docs/PRODUCT.md §2 WhatsApp accounts): below 768 px each account
 * is a card with its state, counts and actions inside the screen, at 1280 px the table; and Start
 * Blast disabled with 'Limit harian tercapai' once the day's cap is reached, also live when a
 * blast ends at the cap.
 */

let server: EngineTestServer;
let member: TestUser;
type Account = { id: number; clientid: string; phonenumber: string };
let connected: Account;
let dropped: Account;
const browser = useBrowser();

const PHONE = { width: 390, height: 844 };
const eventually = <T>(fn: () => T | Promise<T>, timeout = 10_000) => expect.poll(fn, { timeout });

/** The member's list at `width` × `height`, its socket open. */
async function listAt(width: number, height: number): Promise<{ page: Page; list: WhatsappListPage }> {
  const { context, page } = await newPage(browser, width, height);
  await signInAs(context, server, member);
  await page.goto(`${server.url}/whatsapp`);
  const list = new WhatsappListPage(page);
  await list.live();
  return { page, list };
}

/** `acc` at today's cap of `cap` messages (the settings' warm-up held flat), or `sent` under it. */
async function setDay(acc: Account, cap: number, sent: number): Promise<void> {
  await server.db.execute(
    sql`update settings set daily_cap_start = ${cap}, daily_cap_growth = 0, daily_cap_max = ${cap}`,
  );
  await server.db.execute(sql`update whatsapp_accounts set sent_today = ${sent},
    sent_day_end = now() + interval '1 hour', status = 'idle' where id = ${acc.id}`);
}

beforeAll(async () => {
  server = await startEngineTestServer({ pairDelayMs: 300 });
  member = await server.createUser({ role: 'member' });
  await server.db.execute(sql`update users set blast_interval_min = 0, blast_interval_max = 0 where id = ${member.id}`);
  await server.db.execute(sql`update settings set interval_min = 0, interval_max = 0`);
  await server.db.execute(
    sql`insert into message_templates (text, text_wa, status) values ('x', 'Halo {name}', 'active')`,
  );
  await allowBlastingAnyTime(server.db);
  connected = await server.connect(member);
  dropped = await server.connect(member);
  server.sim().control(dropped.clientid).disconnect();
  await until(
    async () => {
      const [r] = await rows<{ state: string }>(
        server.db,
        sql`select state from whatsapp_accounts where id = ${dropped.id}`,
      );
      return r?.state === 'disconnected';
    },
    'the second account to be disconnected',
    10_000,
  );
});
afterAll(async () => {
  await server?.close();
});

describe('the account list on a phone', () => {
  it('shows each account as a card with its state, counts and actions inside 390 px; at 1280 px the table', async () => {
    await server.db.execute(
      sql`update whatsapp_accounts set count_success = 12, count_fail = 3 where id = ${connected.id}`,
    );
    const { page, list } = await listAt(PHONE.width, PHONE.height);
    await eventually(() => list.state(connected.id).textContent()).toBe('Connected');
    await eventually(() => list.state(dropped.id).textContent()).toBe('Disconnected');

    for (const { id } of [connected, dropped]) {
      const card = list.account(id);
      await insideWidth(card, PHONE.width);
      for (const cell of ['wa-state', 'wa-number', 'wa-success', 'wa-fail', 'wa-cap']) {
        await insideWidth(card.getByTestId(cell), PHONE.width);
      }
      await insideWidth(list.button(id, 'Start Blast'), PHONE.width);
      expect(await list.button(id, 'Start Blast').isEnabled()).toBe(true);
      await insideWidth(list.button(id, 'Jadwalkan blast'), PHONE.width);
    }
    expect(await list.account(connected.id).getByTestId('wa-success').textContent()).toBe('12');
    expect(await list.account(connected.id).getByTestId('wa-fail').textContent()).toBe('3');
    expect(await list.cap(connected.id).textContent()).toMatch(/^Hari ini 0\/\d+$/);
    // the account that lost its connection offers Reconnect on its card, the connected one not
    await insideWidth(list.button(dropped.id, 'Reconnect'), PHONE.width);
    expect(await list.button(connected.id, 'Reconnect').count()).toBe(0);
    // nothing scrolls sideways, and there is no table to scroll
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await page.locator('table').count()).toBe(0);

    // a card's action works like the row's: the disconnected account is sent to log in again
    await list.button(dropped.id, 'Start Blast').click();
    await page.getByRole('dialog', { name: 'Forbidden' }).waitFor();

    const wide = await listAt(1280, 800);
    await eventually(() => wide.list.tableRow(connected.id).getByTestId('wa-state').textContent()).toBe('Connected');
    for (const header of ['Akun', 'Client ID', 'Berhasil', 'Gagal', 'Total Pendapatan', 'Status', 'Action']) {
      expect(await wide.page.getByRole('columnheader', { name: header, exact: true }).count()).toBe(1);
    }
    expect(await wide.page.locator('tr[data-row]').count()).toBe(2);
    expect(await wide.list.cards().count()).toBe(0);
    expect(await wide.list.tableRow(connected.id).getByRole('button', { name: 'Start Blast' }).isEnabled()).toBe(true);
  });
});

describe('Start Blast and the daily cap', () => {
  it("is disabled with 'Limit harian tercapai' at the cap, on the card and in the table", async () => {
    await setDay(connected, 5, 5);
    await server.db.execute(sql`update whatsapp_accounts set sent_today = 0 where id = ${dropped.id}`);
    for (const [width, height] of [
      [PHONE.width, PHONE.height],
      [1280, 800],
    ] as const) {
      const { list } = await listAt(width, height);
      await eventually(() => list.cap(connected.id).textContent()).toBe(`Hari ini 5/5 · ${SAFETY_TEXTS.dailyCap}`);
      const button = list.button(connected.id, SAFETY_TEXTS.dailyCap);
      await insideWidth(button, width);
      expect(await button.isDisabled()).toBe(true);
      expect(await list.button(connected.id, 'Start Blast').count()).toBe(0);
      // a start for later may still be scheduled past today's cap
      expect(await list.button(connected.id, 'Jadwalkan blast').count()).toBe(1);
      // the other account, under its cap, may start
      expect(await list.button(dropped.id, 'Start Blast').isEnabled()).toBe(true);
    }
  });

  it('a blast that ends at the cap leaves the button disabled without a reload', async () => {
    await setDay(connected, 5, 3);
    await freshTargets(server.db, 4, '301', { prefix: '62877', name: 'Cap' });
    const { page, list } = await listAt(PHONE.width, PHONE.height);
    let navigations = 0;
    page.on('framenavigated', () => navigations++);
    await eventually(() => list.cap(connected.id).textContent()).toBe('Hari ini 3/5');

    await list.button(connected.id, 'Start Blast').click();
    const button = list.button(connected.id, SAFETY_TEXTS.dailyCap);
    await button.waitFor({ timeout: 15_000 });
    expect(await button.isDisabled()).toBe(true);
    expect(await list.cap(connected.id).textContent()).toBe(`Hari ini 5/5 · ${SAFETY_TEXTS.dailyCap}`);
    expect(await list.button(connected.id, /^(Start|Stop) Blast$/).count()).toBe(0);
    expect(navigations).toBe(0);
    const [acc] = await rows<{ sent_today: number; status: string }>(
      server.db,
      sql`select sent_today, status from whatsapp_accounts where id = ${connected.id}`,
    );
    expect(acc).toEqual({ sent_today: 5, status: 'idle' });
  });
});
