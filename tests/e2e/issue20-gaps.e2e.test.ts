import { SAFETY_TEXTS } from '@wa/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { useUsers } from '../support/factories';
import { useTestServer } from '../support/server';
import { WhatsappListPage } from './pages/whatsapp-list.page';
import { newPage, signInAs, useBrowser } from './support/browser';

/**
 * Issue 20: Start Blast is disabled with 'Limit harian tercapai' "until the next day". A list left
 * open past the end of the day gives Start Blast back without a reload (the list looks again every
 * 10 minutes while a row is capped), and not before it looked again.
 */
const server = useTestServer();
const browser = useBrowser();
const { member } = useUsers(() => server.db, { member: 'member' });

describe('Start Blast at the daily cap, on a list left open', () => {
  it('comes back once the day is over, without a reload', async () => {
    const db = server.db;
    await db.execute(sql`update settings set daily_cap_start = 5, daily_cap_growth = 0, daily_cap_max = 5`);
    const [acc] = await rows<{ id: number }>(
      db,
      sql`insert into whatsapp_accounts (clientid, user_id, phonenumber, state, status, sent_today, sent_day_end)
        values ('id-1770000000000-1', ${member.id}, '6281200000077', 'connected', 'idle', 5, now() + interval '1 hour')
        returning id`,
    );
    const { context, page } = await newPage(browser, 1280, 800);
    await page.clock.install();
    await signInAs(context, server, member);
    await page.goto(`${server.url}/whatsapp`);
    let navigations = 0;
    page.on('framenavigated', () => navigations++);
    const list = new WhatsappListPage(page);
    await expect.poll(() => list.cap(acc.id).textContent()).toBe(`Hari ini 5/5 · ${SAFETY_TEXTS.dailyCap}`);
    expect(await list.button(acc.id, SAFETY_TEXTS.dailyCap).isDisabled()).toBe(true);

    // the day ends on the server: its count runs out
    await db.execute(sql`update whatsapp_accounts set sent_day_end = now() - interval '1 minute' where id = ${acc.id}`);
    // before the list looks again, the button stays as it was
    await page.clock.fastForward('09:00');
    await page.waitForTimeout(1500);
    expect(await list.button(acc.id, SAFETY_TEXTS.dailyCap).isDisabled()).toBe(true);
    // ten minutes after it was drawn, it looks again and Start Blast is back
    await page.clock.fastForward('01:05');
    await expect.poll(() => list.cap(acc.id).textContent(), { timeout: 10_000 }).toBe('Hari ini 0/5');
    expect(await list.button(acc.id, 'Start Blast').isEnabled()).toBe(true);
    expect(await list.button(acc.id, SAFETY_TEXTS.dailyCap).count()).toBe(0);
    expect(navigations).toBe(0);
    await context.close();
  });
});
