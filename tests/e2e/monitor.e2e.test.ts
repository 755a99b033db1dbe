import type { MonitorLocal } from '@wa/shared';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../support/factories';
import { newDeviceId } from '../support/wa-engine';
import { MonitorPage } from './pages/monitor.page';
import { launchBrowser, newPage, signInAs } from './support/browser';
import { type EngineTestServer, startEngineTestServer } from './support/engine-server';

let server: EngineTestServer;
let browser: Browser;
let dev: TestUser;
let member: TestUser;

/** the logins started for the >50 entry collection */
const PENDING = 55;

beforeAll(async () => {
  server = await startEngineTestServer({ pairDelayMs: 800 });
  browser = await launchBrowser();
  dev = await server.createUser({ role: 'dev' });
  member = await server.createUser({ role: 'member' });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const eventually = <T>(fn: () => T | Promise<T>, timeout = 10_000) => expect.poll(fn, { timeout });

async function api<T>(user: TestUser, path: string, body?: object): Promise<T> {
  const res = await fetch(`${server.url}/api${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { Authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Connects an account the way the create screen does: new-client, QR, `authenticated`, save. */
async function connectAccount(user: TestUser, deviceId: string) {
  let off: (() => Promise<void>) | undefined;
  const authenticated = new Promise<Record<string, unknown>>((resolve) => {
    void server.bus
      .subscribe(`ws:client-${user.id}`, (m) => {
        const msg = m as { event: string; payload: Record<string, unknown> };
        if (msg.event === 'authenticated' && msg.payload.deviceId === deviceId) resolve(msg.payload);
      })
      .then((u) => {
        off = u;
      });
  });
  const created = await api<{ proxyId?: number }>(user, '/admin/whatsapp/new-client', { deviceId, userId: user.id });
  await api(user, `/admin/whatsapp/qr-new-client/${deviceId}`);
  const { clientInfo } = await authenticated;
  await off?.();
  const saved = await api<{ whatsapp: { id: number } }>(user, '/admin/whatsapp/save', {
    clientid: deviceId,
    ...(clientInfo as object),
    proxyId: created.proxyId,
    user_id: user.id,
  });
  return saved.whatsapp;
}

describe('the dev monitor', () => {
  it('shows /monitor/local as raw text, a JSON viewer and a tree; a collection over 50 entries collapses into ranges', async () => {
    // logins in progress are sessions the engine holds: more than 50 of them
    for (let i = 0; i < PENDING; i++) await server.engine.host.open({ deviceId: newDeviceId(), userId: member.id });
    const local = await api<{ data: MonitorLocal }>(dev, '/dev/monitor/local');
    if (!local.data.engine.embedded) throw new Error('the test server runs the engine');
    const count = local.data.engine.size;
    expect(count).toBeGreaterThanOrEqual(PENDING);

    const { context, page } = await newPage(browser);
    await signInAs(context, server, dev);
    const monitor = new MonitorPage(page);

    // the spinner shows while the data is on its way
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/api/dev/monitor/local', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.url}/monitor/local?type=string`);
    await eventually(() => page.getByTestId('page-title').textContent()).toBe('Monitor Local');
    await monitor.spinner().waitFor();
    release();
    await monitor.raw().waitFor();
    expect(await monitor.spinner().count()).toBe(0);
    await page.unroute('**/api/dev/monitor/local');
    const raw = JSON.parse((await monitor.raw().textContent()) ?? '') as MonitorLocal;
    expect(raw.process.node).toMatch(/^v\d+/);
    expect(raw.bus).toBe('memory');
    expect(raw.engine.embedded && Object.keys(raw.engine.sessions).length).toBeGreaterThanOrEqual(PENDING);

    // JsonViewer (also as type=1): the sessions open into ranges of 50, each range into its entries
    await page.goto(`${server.url}/monitor/local?type=1`);
    await monitor.viewer().waitFor();
    expect(await monitor.viewer().textContent()).toContain('"node":');
    await monitor.toggle('viewer', '"sessions":').click();
    const last = `[50…${count - 1}]`;
    await eventually(() => monitor.rangeLabels('viewer')).toEqual(['[0…49]', last]);
    expect(
      await monitor
        .viewer()
        .getByText(/^"id-\d+-\d+":$/)
        .count(),
    ).toBe(0);
    await monitor.toggle('viewer', '[0…49]').click();
    await eventually(() =>
      monitor
        .viewer()
        .getByText(/^"id-\d+-\d+":$/)
        .count(),
    ).toBe(50);
    await monitor.toggle('viewer', last).click();
    await eventually(() =>
      monitor
        .viewer()
        .getByText(/^"id-\d+-\d+":$/)
        .count(),
    ).toBe(count);

    // JSONTree by name: only the root is open at first
    await page.goto(`${server.url}/monitor/local?type=JSONTree`);
    await monitor.tree().waitFor();
    expect(await monitor.tree().getByText('sessions:').count()).toBe(0);
    await monitor.toggle('tree', 'engine:').click();
    await monitor.toggle('tree', 'sessions:').click();
    await eventually(() => monitor.rangeLabels('tree')).toEqual(['[0…49]', last]);
    await monitor.toggle('tree', last).click();
    await eventually(() =>
      monitor
        .tree()
        .getByText(/^id-\d+-\d+:$/)
        .count(),
    ).toBe(count - 50);

    // the switch changes ?type=
    await page.getByRole('button', { name: 'string', exact: true }).click();
    await monitor.raw().waitFor();
    expect(new URL(page.url()).searchParams.get('type')).toBe('string');
    await context.close();
  });

  it('is usable at 390 px: the viewer fits the screen', async () => {
    const { context, page } = await newPage(browser, 390, 844);
    await signInAs(context, server, dev);
    const monitor = new MonitorPage(page);
    await page.goto(`${server.url}/monitor/local?type=JsonViewer`);
    await monitor.viewer().waitFor();
    await monitor.toggle('viewer', '"sessions":').click();
    await monitor.toggle('viewer', '[0…49]').click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });

  it('opens /monitor/remote and /monitor/socket for an id', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, dev);
    const monitor = new MonitorPage(page);
    await page.goto(`${server.url}/monitor/socket?type=0`);
    await eventually(() => page.getByTestId('page-title').textContent()).toBe('Monitor Socket');
    await page.locator('input[name=id]').fill(String(dev.id));
    await page.getByRole('button', { name: 'Buka' }).click();
    await monitor.raw().waitFor();
    expect(JSON.parse((await monitor.raw().textContent()) ?? '')).toMatchObject({ userId: dev.id });

    await page.goto(`${server.url}/monitor/remote?id=not-a-client-id`);
    await eventually(() => page.getByRole('alert').textContent()).toContain('id must be a client id');
    await context.close();
  });

  it('logs the live events of one device: authenticated in green, connection.update in yellow after a disconnect', async () => {
    const deviceId = newDeviceId();
    const { context, page } = await newPage(browser, 390, 844);
    await signInAs(context, server, dev);
    const monitor = new MonitorPage(page);
    await page.goto(`${server.url}/monitor/realtime?id=${deviceId}`);
    await eventually(() => page.getByTestId('page-title').textContent()).toBe('Monitor Realtime');
    await page.locator('[data-live="on"]').waitFor();

    // the dev's own account: its events reach the dev on two channels, and show once
    const account = await connectAccount(dev, deviceId);
    const authenticated = monitor.lines('authenticated');
    await authenticated.first().waitFor();
    expect(await authenticated.first().getAttribute('data-tone')).toBe('green');
    expect(await authenticated.first().getAttribute('class')).toContain('text-green');
    expect(await authenticated.first().textContent()).toMatch(/number: 62\d+/);

    server.sim().control(deviceId).disconnect();
    const update = monitor.lines('connection.update').filter({ hasText: 'state: disconnected' });
    await update.first().waitFor();
    expect(await update.first().getAttribute('data-tone')).toBe('yellow');
    expect(await update.first().getAttribute('class')).toContain('text-yellow');
    const color = await update.first().evaluate((el) => getComputedStyle(el).color);
    const plain = await page.getByTestId('page-title').evaluate((el) => getComputedStyle(el).color);
    expect(color).not.toBe(plain);
    expect(await update.first().textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} connection\.update/);
    // a window in which the copy from the second channel must not show
    await page.waitForTimeout(300);
    expect(await update.count()).toBe(1);

    // a reconnect is counted on its lines (§3 Realtime monitor message: reconnectTime)
    await api(dev, '/admin/whatsapp/reconnect', { id: account.id });
    const counted = monitor.lines('reconnecting').filter({ hasText: 'reconnect 1 times' });
    await counted.first().waitFor();
    expect(await counted.first().textContent()).toMatch(/state: reconnecting\.\.\./);
    await context.close();
  });

  it('opens the realtime monitor in a new tab from the client id on the WhatsApp list', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, dev);
    await page.goto(`${server.url}/whatsapp`);
    const link = page.locator('a[href^="/monitor/realtime?id="]').first();
    await link.waitFor();
    expect(await link.getAttribute('target')).toBe('_blank');
    const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await tab.waitForURL(/\/monitor\/realtime\?id=id-\d+-\d+$/);
    await eventually(() => tab.getByTestId('page-title').textContent()).toBe('Monitor Realtime');
    await context.close();
  });

  it('sends a member to /not-authorized', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, member);
    for (const path of ['/monitor/local', '/monitor/realtime?id=id-1700000000000-1']) {
      await page.goto(`${server.url}${path}`);
      await page.waitForURL(`${server.url}/not-authorized`);
      await eventually(() => page.getByRole('heading', { name: 'Not Authorized' }).count()).toBe(1);
    }
    await context.close();
  });
});
