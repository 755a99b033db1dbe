import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import type { TestUser } from '../support/factories';
import { openAs, useBrowser } from './support/browser';
import { type EngineTestServer, startEngineTestServer } from './support/engine-server';

const browser = useBrowser();
let server: EngineTestServer;
let member: TestUser;
let admin: TestUser;

beforeAll(async () => {
  server = await startEngineTestServer();
  member = await server.createUser({ role: 'member' });
  admin = await server.createUser({ role: 'admin' });
});
afterAll(async () => {
  await server?.close();
});

/** polls until the value matches; the server, worker and socket get a few seconds */
const eventually = <T>(fn: () => T | Promise<T>, timeout = 10_000) => expect.poll(fn, { timeout });

/** the bodies the page sends to new-client */
function newClientBodies(page: Page): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/admin/whatsapp/new-client')) bodies.push(r.postDataJSON());
  });
  return bodies;
}

async function engineOf(clientid: string): Promise<string | null | undefined> {
  const [row] = await rows<{ engine: string | null }>(
    server.db,
    sql`select engine from whatsapp_accounts where clientid = ${clientid}`,
  );
  return row?.engine;
}

describe("the 'Mesin' choice of /whatsapp/create", () => {
  it('lets an admin log an account in on Baileys; the account keeps that engine', async () => {
    const { context, page } = await openAs(browser, server, admin, '/whatsapp/create');
    const bodies = newClientBodies(page);
    await page.locator('[data-live="on"]').first().waitFor();
    const engine = page.getByLabel('Mesin');
    expect(await engine.inputValue()).toBe('default');
    expect(await engine.locator('option').allTextContents()).toEqual([
      'Bawaan server',
      'whatsapp-web.js (Chromium)',
      'Baileys (tanpa browser)',
    ]);
    await engine.selectOption({ label: 'Baileys (tanpa browser)' });
    const deviceId = await page.locator('input[name=deviceId]').inputValue();

    await page.getByRole('button', { name: 'Generate QR Code' }).click();
    await page.getByRole('img', { name: 'QR Code' }).waitFor();
    expect(await engine.isDisabled()).toBe(true);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({ deviceId, engine: 'baileys' });
    await eventually(() => engineOf(deviceId), 15_000).toBe('baileys');
    await context.close();
  });

  it('shows a member nothing new, and their new-client carries no engine', async () => {
    const { context, page } = await openAs(browser, server, member, '/whatsapp/create');
    const bodies = newClientBodies(page);
    await page.locator('[data-live="on"]').first().waitFor();
    await page.getByRole('button', { name: 'Generate QR Code' }).waitFor();
    expect(await page.getByText('Mesin', { exact: true }).count()).toBe(0);
    expect(await page.locator('select[name=engine]').count()).toBe(0);

    await page.getByRole('button', { name: 'Generate QR Code' }).click();
    await eventually(() => bodies.length).toBe(1);
    expect(bodies[0]).not.toHaveProperty('engine');
    await context.close();
  });
});
