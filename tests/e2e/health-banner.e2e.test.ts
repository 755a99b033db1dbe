import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../support/factories';
import { until } from '../support/wait';
import { ShellPage } from './pages/shell.page';
import { newPage, signInAs, useBrowser } from './support/browser';
import { type EngineTestServer, startEngineTestServer } from './support/engine-server';

/**
 * The "Sistem terganggu" banner: admins and devs see what GET /api/health finds wrong and see it go
 * once all is well again (the dashboard asks every 15 s); members and staff never see it nor ask.
 * The server runs the embedded engine, so a worker is alive and only what a test breaks counts.
 */
let server: EngineTestServer;
const browser = useBrowser();
const users = {} as Record<'admin' | 'dev' | 'member' | 'staff', TestUser>;

beforeAll(async () => {
  server = await startEngineTestServer();
  for (const role of ['admin', 'dev', 'member', 'staff'] as const) users[role] = await server.createUser({ role });
});
afterAll(async () => {
  await server?.close();
});

const healthStatus = async () => (await fetch(`${server.url}/api/health`)).status;
const isHealthCall = (url: string) => new URL(url).pathname === '/api/health';

/** `role`'s profile page once the frame is drawn, with every GET /api/health call it made from the start. */
async function openProfile(role: keyof typeof users) {
  const calls: string[] = [];
  const { context, page } = await newPage(browser);
  page.on('request', (r) => {
    if (isHealthCall(r.url())) calls.push(r.url());
  });
  await signInAs(context, server, users[role]);
  await page.goto(`${server.url}/profile`);
  await page.getByTestId('page-title').waitFor();
  return { context, page, shell: new ShellPage(page), calls };
}

/** Reloads and waits until the banner has had its answer to draw from. */
async function reloadWithHealth(page: Page) {
  const answered = page.waitForResponse((r) => isHealthCall(r.url()));
  await page.reload();
  await answered;
  await page.getByTestId('page-title').waitFor();
}

/** A blast the row says is running, on an account no worker holds and none can restore (no stored session). */
async function sendingWithoutHolder(clientid: string) {
  await server.db.execute(sql`insert into whatsapp_accounts (clientid, user_id, phonenumber, state, status)
    values (${clientid}, ${users.member.id}, '6281200000001', 'connected', 'sending')`);
  await until(async () => (await healthStatus()) === 503, 'health to say degraded', 10_000);
}

/** The blast ended: the system is well again. */
async function blastEnded(clientid: string) {
  await server.db.execute(sql`update whatsapp_accounts set status = 'idle' where clientid = ${clientid}`);
  await until(async () => (await healthStatus()) === 200, 'health to say ok', 10_000);
}

const UNHELD = '1 akun sedang blast tetapi tidak dipegang worker mana pun.';

describe('the health banner while the system is degraded', () => {
  beforeAll(async () => {
    await until(async () => (await healthStatus()) === 200, 'health to say ok', 10_000);
    await sendingWithoutHolder('id-health-e2e-1');
  });
  afterAll(async () => {
    await blastEnded('id-health-e2e-1');
  });

  it('tells an admin what is wrong, in plain words', async () => {
    const admin = await openProfile('admin');
    await expect.poll(() => admin.shell.healthBanner().textContent()).toContain('Sistem terganggu:');
    expect(await admin.shell.healthBanner().textContent()).toContain(UNHELD);
    // openProfile sees the page's health calls, so none seen for a member below means none made
    expect(admin.calls.length).toBeGreaterThan(0);
    await admin.context.close();
  });

  it('tells a dev too', async () => {
    const dev = await openProfile('dev');
    await expect.poll(() => dev.shell.healthBanner().textContent()).toContain(UNHELD);
    await dev.context.close();
  });

  it('is never shown to members or staff, whose dashboards do not even ask', async () => {
    for (const role of ['member', 'staff'] as const) {
      const other = await openProfile(role);
      // the screen has made every request it makes on its own; no banner and no health call among them
      await other.page.waitForLoadState('networkidle');
      expect(await other.shell.healthBanner().count()).toBe(0);
      expect(other.calls).toEqual([]);
      await other.context.close();
    }
  });
});

describe('the health banner when all is well', () => {
  it('is not there while health is ok', async () => {
    await expect.poll(healthStatus, { timeout: 10_000 }).toBe(200);
    const admin = await openProfile('admin');
    await reloadWithHealth(admin.page);
    expect(await admin.shell.healthBanner().count()).toBe(0);
    await admin.context.close();
  });

  it('goes from an open page at its next poll once the system is ok, without a reload', async () => {
    await sendingWithoutHolder('id-health-e2e-2');
    const admin = await openProfile('admin');
    await expect.poll(() => admin.shell.healthBanner().textContent()).toContain(UNHELD);
    await blastEnded('id-health-e2e-2');
    // HEALTH_POLL_MS is 15 s
    await expect.poll(() => admin.shell.healthBanner().count(), { timeout: 25_000, interval: 500 }).toBe(0);
    await admin.context.close();
  });
});
