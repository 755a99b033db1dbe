import { sql } from 'drizzle-orm';
import type { Page, Request, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEZONE } from '../../core/src/config';
import { rows } from '../../core/src/db/client';
import { rebuildDaily } from '../../core/src/ledger/daily';
import type { TestUser } from '../support/factories';
import { useTestServer } from '../support/server';
import { SignInPage } from './pages/sign-in.page';
import { newPage, signInAs, useBrowser } from './support/browser';

/**
 * Issue 23, the page, in Chromium: the JavaScript a screen loads (its bytes before compression, as
 * the browser runs them) within budget, the sign-in screen without the other screens or the chart
 * library, the files compressed and cached a year, and a dashboard's figures in one call.
 * bench/README.md "Page weight (issue 23)" has the figures.
 */

/** Kilobytes as Vite and the issue count them (1,000 bytes). */
const KB = 1000;
/** The sign-in screen: React, the router, the form; no other screen, no schema, no chart. */
const SIGN_IN_BUDGET = 350 * KB;
/** A dashboard with its charts drawn. */
const DASHBOARD_BUDGET = 700 * KB;

const server = useTestServer();
const browser = useBrowser();
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: 'admin' });
  member = await server.createUser({ role: 'member', firstname: 'Wulan' });
  const db = server.db;
  const [account] = await rows<{ id: number }>(
    db,
    sql`insert into whatsapp_accounts (clientid, user_id, phonenumber, state)
      values ('id-1760000000000-1', ${member.id}, '6281200000001', 'connected') returning id`,
  );
  for (const [target, status] of [
    ['6281300000001', 'delivered'],
    ['6281300000002', 'sent'],
    ['6281300000003', 'failed'],
  ] as const) {
    await db.execute(sql`insert into message_logs (user_id, whatsapp_id, target, status, fee, created_at, sent_at, delivered_at)
      values (${member.id}, ${account.id}, ${target}, ${status}, 2500, now() - interval '1 minute',
        case when ${status} <> 'failed' then now() - interval '1 minute' end,
        case when ${status} = 'delivered' then now() - interval '1 minute' end)`);
  }
  await rebuildDaily(db, DEFAULT_TIMEZONE);
});

/** A script the page loaded: where from, its bytes as run, and how it came over the wire. */
interface Script {
  url: string;
  bytes: number;
  encoding: string | undefined;
  cacheControl: string | undefined;
}

/** Records every script the page loads, and every /api call it makes, until `stop`. */
function watch(page: Page) {
  const scripts: Promise<Script>[] = [];
  const calls: string[] = [];
  const onResponse = (res: Response) => {
    if (res.request().resourceType() !== 'script') return;
    scripts.push(
      res.body().then((body) => ({
        url: new URL(res.url()).pathname,
        bytes: body.length,
        encoding: res.headers()['content-encoding'],
        cacheControl: res.headers()['cache-control'],
      })),
    );
  };
  const onRequest = (req: Request) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith('/api/')) calls.push(`${req.method()} ${url.pathname}`);
  };
  page.on('response', onResponse);
  page.on('request', onRequest);
  return {
    calls,
    scripts: () => Promise.all(scripts),
    total: async () => (await Promise.all(scripts)).reduce((n, s) => n + s.bytes, 0),
    stop: () => {
      page.off('response', onResponse);
      page.off('request', onRequest);
    },
  };
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

describe('the JavaScript each screen loads (issue 23)', () => {
  it('keeps the sign-in screen within its budget, without the other screens, the schemas or the charts', async () => {
    const { context, page } = await newPage(browser);
    const loaded = watch(page);
    const signIn = new SignInPage(page);
    await signIn.open(server.url);
    await page.waitForLoadState('networkidle');
    const scripts = await loaded.scripts();
    const total = await loaded.total();
    console.log(`page weight: /signin ${kb(total)} in ${scripts.length} scripts`);
    expect(total).toBeLessThanOrEqual(SIGN_IN_BUDGET);
    const names = scripts.map((s) => s.url).join(' ');
    for (const part of ['chart-canvas', 'dashboard-page', 'app-layout', 'sign-up-page']) {
      expect(names, part).not.toContain(part);
    }
    // the hashed files come compressed as the browser asks and are kept a year; the theme's
    // few lines (no hash) are asked again each time
    for (const s of scripts) {
      if (s.url === '/theme-init.js') {
        expect(s.cacheControl).toBe('no-cache');
        continue;
      }
      expect(s.url).toMatch(/^\/assets\//);
      expect(s.encoding, s.url).toBe('br');
      expect(s.cacheControl, s.url).toBe('public, max-age=31536000, immutable');
    }
    loaded.stop();
    // signing in loads what the calls need, and the dashboard
    await signIn.fill(member.email, member.password);
    await signIn.submit();
    await page.waitForURL(`${server.url}/dashboard`);
    await context.close();
  });

  for (const who of ['admin', 'member'] as const) {
    it(`keeps the ${who} dashboard with its charts within its budget, its figures in one call`, async () => {
      const user = who === 'admin' ? admin : member;
      const { context, page } = await newPage(browser);
      await signInAs(context, server, user);
      const loaded = watch(page);
      await page.goto(`${server.url}/dashboard`);
      await expect.poll(() => page.getByTestId('chart-hourly').locator('canvas').count()).toBe(1);
      await expect.poll(() => page.getByTestId('chart-accounts').locator('canvas').count()).toBe(1);
      await expect.poll(() => page.getByTestId('stat-wa-active-value').textContent()).toBe('1');
      await page.waitForLoadState('networkidle');
      const scripts = await loaded.scripts();
      const total = await loaded.total();
      console.log(`page weight: /dashboard (${who}, charts drawn) ${kb(total)} in ${scripts.length} scripts`);
      expect(total).toBeLessThanOrEqual(DASHBOARD_BUDGET);
      expect(scripts.map((s) => s.url).join(' ')).toContain('chart-canvas');
      // one call for every figure, none of the single counters
      const counters = loaded.calls.filter((c) => c.startsWith('GET /api/admin/dashboard/counters/'));
      expect(counters).toEqual([`GET /api/admin/dashboard/counters/${who === 'admin' ? 'all' : member.id}`]);
      const single =
        /\/api\/admin\/(messagelog\/(count|today|total)|withdraw\/balance|bonus\/total|whatsapp\/count|users\/active|proxy\/count-use|phonenumber\/count-blast)/;
      expect(loaded.calls.filter((c) => single.test(c))).toEqual([]);
      await context.close();
    });
  }
});
