import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../support/factories';
import { startTestServer, type TestServer } from '../support/server';
import { launchBrowser, newPage, signInAs } from './support/browser';

let server: TestServer;
let browser: Browser;
let admin: TestUser;

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a0cf0000000049454e44ae426082',
  'hex',
);

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  admin = await server.createUser({ role: 'admin' });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('message template screens', () => {
  it('creates a template with a bold caption, a placeholder and an image, then edits it', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, admin);
    await page.goto(`${server.url}/message`);
    await expect.poll(() => page.getByText('Kosong').count()).toBe(1);
    let alerted = '';
    page.once('dialog', async (d) => {
      alerted = d.message();
      await d.dismiss();
    });
    await page.getByRole('button', { name: 'Export JSON' }).click();
    await expect.poll(() => alerted).toBe('No messages to export.');

    await page.getByRole('button', { name: 'Tambah' }).click();
    await page.waitForURL(`${server.url}/message/create`);
    const editor = page.getByTestId('caption-editor');
    await editor.click();
    await page.keyboard.type('Promo');
    await page.keyboard.press('Control+a');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.press('End');
    await page.getByRole('button', { name: '{name}' }).click();
    await expect.poll(() => page.getByTestId('wa-preview').textContent()).toMatch(/^\*Promo.*\{name\}/);
    await page.setInputFiles('input[name=media]', { name: 'promo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Simpan' }).click();
    await page.waitForURL(`${server.url}/message`);
    const img = page.locator('tbody img[alt=Media]');
    await img.waitFor();
    expect(await img.getAttribute('src')).toMatch(/^\/uploads\/templates\/.+\.png$/);
    expect(await page.locator('tbody').textContent()).toContain('{name}');

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(/\/message\/edit\?id=\d+/);
    await expect.poll(() => editor.innerHTML()).toContain('Promo');
    await page.selectOption('select[name=status]', 'nonactive');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await page.waitForURL(`${server.url}/message`);
    await expect.poll(() => page.getByText('nonactive').count()).toBe(1);
    await context.close();
  });

  it('imports templates from JSON only and shows a non-image medium as a link', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, admin);
    await page.goto(`${server.url}/message/create`);
    const form = page.getByTestId('template-import');
    await form
      .locator('input[name=file]')
      .setInputFiles({ name: 't.csv', mimeType: 'text/csv', buffer: Buffer.from('a') });
    await form.getByRole('button', { name: 'Upload File' }).click();
    await expect.poll(() => form.getByText('Only .json files are accepted.').count()).toBe(1);
    const items = [{ text: 'Brosur', media: '/uploads/templates/brosur.pdf' }, { text: '' }];
    await form
      .locator('input[name=file]')
      .setInputFiles({ name: 't.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(items)) });
    await form.getByRole('button', { name: 'Upload File' }).click();
    await expect.poll(() => form.getByText('Total 1 template berhasil disimpan, 1 dilewatkan.').count()).toBe(1);
    await page.goto(`${server.url}/message`);
    await expect.poll(() => page.getByRole('link', { name: 'View Media' }).count()).toBe(1);
    await context.close();
  });
});
