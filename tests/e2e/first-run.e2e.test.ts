import { FIRST_RUN_STEPS } from '@wa/shared';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { rebuildDaily } from '../../core/src/ledger/daily';
import { useUsers } from '../support/factories';
import { useTestServer } from '../support/server';
import { FirstRunChecklist } from './pages/first-run.page';
import { newPage, openAs, signInAs, useBrowser } from './support/browser';

/**
 * Issue 20 in Chromium: on a fresh install the admin's (and dev's) dashboard lists the four first
 * steps with links to their screens, ticks a step once it is taken, and drops the list once all
 * four are; a member never sees it.
 */

const server = useTestServer();
const browser = useBrowser();
const { admin, dev, member } = useUsers(() => server.db, { admin: 'admin', dev: 'dev', member: 'member' });

const LINKS = {
  accounts: '/whatsapp/create',
  targets: '/phonenumber/create',
  templates: '/message/create',
  messages: '/whatsapp',
} as const;

/** Waits until the dashboard has its answer from GET /api/admin/first-run (or the figures, for a member). */
async function dashboardLoaded(page: Page, title: string) {
  await expect.poll(() => page.getByTestId('page-title').textContent()).toBe(title);
  await expect.poll(() => page.getByTestId('stat-wa-active-value').textContent()).toMatch(/^\d+$/);
}

describe('the first-run checklist', () => {
  it('a member never sees it, nor asks for it', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, member);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/admin/first-run')) asked.push(r.url());
    });
    await page.goto(`${server.url}/`);
    await dashboardLoaded(page, 'Dashboard Member');
    await expect.poll(() => page.getByTestId('stat-blast-success-value').textContent()).toBe('0');
    expect(await new FirstRunChecklist(page).box().count()).toBe(0);
    expect(asked).toEqual([]);
    await context.close();
  });

  it('shows admin and dev the four steps unticked on a fresh install, each linking to its screen', async () => {
    for (const u of [admin, dev]) {
      const { context, page } = await openAs(browser, server, u, '/');
      const list = new FirstRunChecklist(page);
      await list.box().waitFor();
      expect(await list.progress()).toBe('0 dari 4 selesai');
      for (const step of FIRST_RUN_STEPS) {
        expect(await list.done(step), `${u.role} ${step}`).toBe('false');
        expect(await list.link(step).getAttribute('href'), step).toBe(LINKS[step]);
      }
      // the blast step says who starts one: an admin cannot
      expect(await list.step('messages').textContent()).toContain(
        u.role === 'admin' ? 'member (dari akunnya sendiri) atau dev' : 'Start Blast',
      );
      await context.close();
    }
  });

  it("ticks 'write a template' once one is saved from the step's own link", async () => {
    const { context, page } = await openAs(browser, server, admin, '/');
    const list = new FirstRunChecklist(page);
    await list.box().waitFor();
    await list.link('templates').click();
    await page.waitForURL(`${server.url}/message/create`);
    await page.getByTestId('caption-editor').click();
    await page.keyboard.type('Halo, promo minggu ini!');
    await page.getByRole('button', { name: 'Simpan' }).click();
    // the form goes back where it was opened from: the dashboard, asking for the figures again
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => list.done('templates')).toBe('true');
    expect(await list.progress()).toBe('1 dari 4 selesai');
    for (const step of ['accounts', 'targets', 'messages'] as const) expect(await list.done(step)).toBe('false');
    await context.close();
  });

  it('is gone once every step is done', async () => {
    const db = server.db;
    await db.execute(sql`insert into whatsapp_accounts (clientid, user_id, phonenumber, state)
      values ('id-1760000000000-1', ${member.id}, '6281200000001', 'connected')`);
    await db.execute(sql`insert into phone_numbers (number, status) values ('6281500000001', 'active')`);
    // (the test before saved one through the form; this one stands alone too)
    await db.execute(
      sql`insert into message_templates (text, text_wa, status) values ('<p>Halo</p>', 'Halo', 'active')`,
    );
    const { context, page } = await openAs(browser, server, dev, '/');
    const list = new FirstRunChecklist(page);
    // three of four: still shown, the blast step open
    await expect.poll(() => list.done('targets')).toBe('true');
    expect(await list.done('accounts')).toBe('true');
    expect(await list.done('messages')).toBe('false');
    // the member's first blast message WhatsApp accepted
    const [account] = await rows<{ id: number }>(
      db,
      sql`select id from whatsapp_accounts where clientid = 'id-1760000000000-1'`,
    );
    await db.execute(sql`insert into message_logs (user_id, whatsapp_id, target, status, sent_at)
      values (${member.id}, ${account.id}, '6281500000001', 'sent', now())`);
    await rebuildDaily(db, 'Asia/Jakarta');
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/admin/first-run'));
    await page.reload();
    expect(await (await answered).json()).toMatchObject({ done: true });
    await dashboardLoaded(page, 'Dashboard Admin');
    await expect.poll(() => page.getByTestId('stat-blast-total-berhasil').textContent()).toBe('1');
    expect(await list.box().count()).toBe(0);
    await context.close();
  });
});
