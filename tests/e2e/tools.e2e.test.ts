import { readFile } from 'node:fs/promises';
import { TOOL_TEXTS } from '@wa/shared';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/src/config';
import { simIsRegistered } from '../../workers/src/drivers/sim';
import type { TestUser } from '../support/factories';
import { launchBrowser, newPage, signInAs } from './support/browser';
import { type EngineTestServer, startEngineTestServer } from './support/engine-server';

// about half the numbers are on the simulated WhatsApp; which ones is fixed by the seed
process.env.SIM_REGISTERED_RATE = '0.5';

let server: EngineTestServer;
let browser: Browser;
let admin: TestUser;
let account: { id: number; clientid: string; phonenumber: string };

/** polls until the value matches; the worker and socket get a few seconds */
const eventually = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout });
const registered = (n: string) => simIsRegistered(loadConfig().sim, n);
const row = (page: Page, id: number) => page.locator(`tr[data-row="${id}"]`);
const cell = (page: Page, id: number, testId: string) => row(page, id).getByTestId(testId).textContent();

/** The next live event on a user's channel, as the socket would deliver it. */
function nextEvent(channel: string, event: string, timeoutMs = 10_000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let off: (() => Promise<void>) | undefined;
    const timer = setTimeout(() => reject(new Error(`no ${event} on ${channel}`)), timeoutMs);
    void server.bus
      .subscribe(`ws:${channel}`, (m) => {
        const msg = m as { event: string; payload: Record<string, unknown> };
        if (msg.event !== event) return;
        clearTimeout(timer);
        void off?.();
        resolve(msg.payload);
      })
      .then((u) => {
        off = u;
      });
  });
}

/** Calls the API as a user. */
async function apiCall<T>(u: TestUser, method: string, path: string, body?: object): Promise<T> {
  const res = await fetch(`${server.url}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${u.token}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Connects a simulated WhatsApp account for `u` the way the create screen does. */
async function connectAccount(u: TestUser) {
  const deviceId = `id-${Date.now()}-77`;
  const authenticated = nextEvent(`client-${u.id}`, 'authenticated');
  const created = await apiCall<{ proxyId: number | null }>(u, 'POST', '/admin/whatsapp/new-client', {
    deviceId,
    userId: u.id,
  });
  await apiCall(u, 'GET', `/admin/whatsapp/qr-new-client/${deviceId}`);
  const auth = await authenticated;
  const saved = await apiCall<{ whatsapp: typeof account }>(u, 'POST', '/admin/whatsapp/save', {
    clientid: deviceId,
    ...(auth.clientInfo as object),
    proxyId: created.proxyId,
    user_id: u.id,
  });
  return saved.whatsapp;
}

/** The first run of `size` numbers from 62812000…, with some on WhatsApp and some not. */
function mixedRange(size: number): string[] {
  for (let base = 6281200000000n; ; base += BigInt(size)) {
    const numbers = Array.from({ length: size }, (_, i) => (base + BigInt(i)).toString());
    const found = numbers.filter(registered).length;
    if (found > 0 && found < size) return numbers;
  }
}

async function csvOf(download: Download): Promise<string> {
  const file = await download.path();
  return readFile(file, 'utf8');
}

beforeAll(async () => {
  server = await startEngineTestServer({ pairDelayMs: 300 });
  browser = await launchBrowser();
  admin = await server.createUser({ role: 'admin' });
  account = await connectAccount(admin);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('generator screens', () => {
  it('checks the form, runs a range live to 100 %, exports the found numbers, edits, stops and deletes', async () => {
    const numbers = mixedRange(5);
    const found = numbers.filter(registered);
    const { context, page } = await newPage(browser, 390, 844);
    await signInAs(context, server, admin);
    await page.goto(`${server.url}/generator/list`);
    await eventually(() => page.getByTestId('page-title').textContent()).toBe('Daftar Generator');
    await eventually(() => page.getByText('Kosong').count()).toBe(1);
    expect(await page.getByTestId('pagination').count()).toBe(0);

    await page.getByRole('link', { name: 'Tambah' }).click();
    await page.waitForURL(`${server.url}/generator/create`);
    await eventually(() => page.getByTestId('page-title').textContent()).toBe('Tambah Akun Generator');
    const submit = page.getByRole('button', { name: 'Simpan' });
    expect(await submit.isDisabled()).toBe(true);
    // §9 defaults
    expect(await page.locator('input[name=interval_min]').inputValue()).toBe('1');
    expect(await page.locator('input[name=interval_max]').inputValue()).toBe('2');
    // §5: the two order messages under their fields
    await page.fill('input[name=start_number]', numbers[4] as string);
    await page.fill('input[name=end_number]', numbers[0] as string);
    await eventually(() => page.getByText(TOOL_TEXTS.startAfterEnd).count()).toBe(1);
    await page.fill('input[name=interval_min]', '5');
    await eventually(() => page.getByText(TOOL_TEXTS.minAfterMax).count()).toBe(1);
    await page.fill('input[name=start_number]', numbers[0] as string);
    await page.fill('input[name=end_number]', numbers[4] as string);
    await page.fill('input[name=interval_min]', '0');
    await page.fill('input[name=interval_max]', '0');
    expect(await page.getByText(TOOL_TEXTS.startAfterEnd).count()).toBe(0);
    expect(await page.getByText(TOOL_TEXTS.minAfterMax).count()).toBe(0);
    // the account is required; 'new' goes to connect one
    await submit.click();
    await eventually(() => page.getByText('Account is required.').count()).toBe(1);
    await eventually(() => page.locator('select[name=whatsapp_id] option').count()).toBe(3);
    await page.selectOption('select[name=whatsapp_id]', 'new');
    await page.waitForURL(`${server.url}/whatsapp/create?type=generator`);
    await page.goBack();
    await page.waitForURL(`${server.url}/generator/create`);
    await page.fill('input[name=start_number]', numbers[0] as string);
    await page.fill('input[name=end_number]', numbers[4] as string);
    await page.fill('input[name=interval_min]', '0');
    await page.fill('input[name=interval_max]', '0');
    await page.selectOption('select[name=whatsapp_id]', String(account.id));
    await submit.click();
    await page.waitForURL(`${server.url}/generator/list`);

    const [gen] = (
      await apiCall<{ data: { id: number }[] }>(
        admin,
        'GET',
        `/admin/generator/list-per-page?page=1&user_id=${admin.id}`,
      )
    ).data;
    const id = gen?.id as number;
    await eventually(() => row(page, id).textContent()).toContain(`${numbers[0]}-${numbers[4]}`);
    expect(await row(page, id).textContent()).toContain(account.clientid);
    expect(await cell(page, id, 'tool-progress')).toBe('0.00%');
    expect(await cell(page, id, 'tool-status')).toBe('idle');
    // nothing found yet: nothing to export
    let alerted = '';
    page.once('dialog', async (d) => {
      alerted = d.message();
      await d.dismiss();
    });
    await row(page, id).getByRole('button', { name: 'Download' }).click();
    await eventually(() => alerted).toBe('No phone numbers to export.');

    // the run, followed live
    await page.locator('[data-live="on"]').waitFor();
    await row(page, id).getByRole('button', { name: 'Start' }).click();
    await eventually(() => cell(page, id, 'tool-status')).toBe('finished');
    expect(await cell(page, id, 'tool-progress')).toBe('100.00%');
    expect(await cell(page, id, 'tool-success')).toBe(String(found.length));
    expect(await cell(page, id, 'tool-fail')).toBe(String(numbers.length - found.length));
    expect(await cell(page, id, 'tool-current')).toBe(numbers[4]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row(page, id).getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('phone_numbers_generated.csv');
    const lines = (await csvOf(download)).trim().split('\n');
    expect(lines[0]).toBe('number,name,status');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(found);
    expect(lines.slice(1).every((l) => l.endsWith(',active'))).toBe(true);

    // a finished generator does not start again: the server's text shows
    await row(page, id).getByRole('button', { name: 'Start' }).click();
    await eventually(() => page.getByRole('alert').textContent()).toBe(
      'Generator has finished. Edit it to start over.',
    );

    // the edit form loads the generator; saving starts it over on a longer range, with pauses
    await row(page, id).getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${server.url}/generator/create?id=${id}`);
    await eventually(() => page.locator('input[name=start_number]').inputValue()).toBe(numbers[0]);
    expect(await page.locator('select[name=whatsapp_id]').inputValue()).toBe(String(account.id));
    await page.fill('input[name=end_number]', (BigInt(numbers[0] as string) + 99n).toString());
    await page.fill('input[name=interval_min]', '3');
    await page.fill('input[name=interval_max]', '3');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await page.waitForURL(`${server.url}/generator/list`);
    await eventually(() => cell(page, id, 'tool-progress')).toBe('0.00%');
    await page.locator('[data-live="on"]').waitFor();
    await row(page, id).getByRole('button', { name: 'Start' }).click();
    await eventually(() => cell(page, id, 'tool-status')).toMatch(/^(Generating\.\.\.|Waiting \(\ds\)\.\.\.)$/);
    await eventually(() => cell(page, id, 'tool-status')).toMatch(/^Waiting \(\ds\)\.\.\.$/);
    // the status filter works on the loaded page
    await page.getByLabel('Filter Status').selectOption('idle');
    await eventually(() => page.getByText('Kosong').count()).toBe(1);
    await page.getByLabel('Filter Status').selectOption('running');
    await eventually(() => row(page, id).count()).toBe(1);
    await page.getByLabel('Filter Status').selectOption('');

    await row(page, id).getByRole('button', { name: 'Stop' }).click();
    await eventually(() => cell(page, id, 'tool-status')).toBe('idle');
    expect(await row(page, id).getByRole('button', { name: 'Start' }).count()).toBe(1);

    await row(page, id).getByRole('button', { name: 'Delete' }).click();
    await eventually(() => page.getByText('Kosong').count()).toBe(1);
    expect(
      (await apiCall<{ data: unknown[] }>(admin, 'GET', `/admin/generator/list-per-page?page=1&user_id=${admin.id}`))
        .data,
    ).toEqual([]);
    await context.close();
  });
});

describe('validator screens', () => {
  it('uploads a file, runs it live, exports the valid numbers, and keeps the file on edit', async () => {
    const numbers = mixedRange(4).map((n) => (BigInt(n) + 1000n).toString());
    const found = numbers.filter(registered);
    const { context, page } = await newPage(browser);
    await signInAs(context, server, admin);
    await page.goto(`${server.url}/validator/create`);
    await eventually(() => page.getByTestId('page-title').textContent()).toBe('Tambah Akun Validator');
    const submit = page.getByRole('button', { name: 'Simpan' });
    expect(await submit.isDisabled()).toBe(true);
    await eventually(() => page.locator('select[name=whatsapp_id] option').count()).toBe(3);
    await page.selectOption('select[name=whatsapp_id]', String(account.id));
    // still no file
    expect(await submit.isDisabled()).toBe(true);
    await page.setInputFiles('input[name=file]', {
      name: 'targets.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('number\n6281\n'),
    });
    await eventually(() => page.getByText('Only .csv and .json files are accepted.').count()).toBe(1);
    const fileName = 'a-rather-long-target-list-for-the-validator.csv';
    const fileText = ['number,name', ...numbers.map((n, i) => `${n},Target ${i}`)].join('\n');
    await page.setInputFiles('input[name=file]', {
      name: fileName,
      mimeType: 'text/csv',
      buffer: Buffer.from(fileText),
    });
    await page.fill('input[name=interval_min]', '0');
    await page.fill('input[name=interval_max]', '0');
    await submit.click();
    await page.waitForURL(`${server.url}/validator/list`);
    await eventually(() => page.getByTestId('page-title').textContent()).toBe('Daftar Validator');

    const [v] = (
      await apiCall<{ data: { id: number; fileUrl: string }[] }>(
        admin,
        'GET',
        `/admin/validator/list-per-page?page=1&user_id=${admin.id}`,
      )
    ).data;
    const id = v?.id as number;
    // the Target File links to the file and shows a shortened name (the full one on hover)
    const link = row(page, id).locator(`a[href="${v?.fileUrl}"]`);
    await eventually(() => link.count()).toBe(1);
    expect(await link.getAttribute('title')).toBe(fileName);
    const shown = (await link.textContent()) ?? '';
    expect(shown.length).toBeLessThan(fileName.length);
    expect(shown).toMatch(/^a-rather-.*….*\.csv$/);
    // the link downloads the upload through the authorised route (the session cookie, no bearer)
    expect(v?.fileUrl).toBe(`/api/admin/validator/file/${id}`);
    const [upload] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(upload.suggestedFilename()).toBe(fileName);
    expect(await csvOf(upload)).toBe(fileText);
    expect(page.url()).toBe(`${server.url}/validator/list`);

    await page.locator('[data-live="on"]').waitFor();
    await row(page, id).getByRole('button', { name: 'Start' }).click();
    await eventually(() => cell(page, id, 'tool-status')).toBe('finished');
    expect(await cell(page, id, 'tool-progress')).toBe('100.00%');
    expect(await cell(page, id, 'tool-success')).toBe(String(found.length));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row(page, id).getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('phone_numbers_validated.csv');
    const lines = (await csvOf(download)).trim().split('\n');
    expect(lines[0]).toBe('number,name,status');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(found);

    // the edit keeps the file: no file input, the name shown, the rest editable
    await row(page, id).getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${server.url}/validator/create?id=${id}`);
    await eventually(() => page.getByText('File tidak dapat diubah.').count()).toBe(1);
    expect(await page.locator('input[name=file]').count()).toBe(0);
    await eventually(() => page.locator('select[name=whatsapp_id]').inputValue()).toBe(String(account.id));
    await page.fill('input[name=interval_max]', '4');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await page.waitForURL(`${server.url}/validator/list`);
    await eventually(() => cell(page, id, 'tool-progress')).toBe('0.00%');
    const saved = await apiCall<{ validator: { interval_max: number; fileName: string } }>(
      admin,
      'GET',
      `/admin/validator/${id}`,
    );
    expect(saved.validator).toMatchObject({ interval_max: 4, fileName });
    await context.close();
  });
});

describe('a dev', () => {
  it("runs a tool on another user's connected account: every connected account is a choice", async () => {
    const dev = await server.createUser({ role: 'dev' });
    const { context, page } = await newPage(browser);
    await signInAs(context, server, dev);
    await page.goto(`${server.url}/generator/create`);
    const select = page.getByLabel('Akun Whatsapp');
    await eventually(async () => (await select.locator('option').allTextContents()).join('|')).toContain(
      account.phonenumber,
    );
    await context.close();
  });
});
