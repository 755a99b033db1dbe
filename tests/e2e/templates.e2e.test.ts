import { describe, expect, it } from 'vitest';
import { TINY_PNG, useUsers } from '../support/factories';
import { useTestServer } from '../support/server';
import { catchDialog, openAs, useBrowser } from './support/browser';

const server = useTestServer();
const browser = useBrowser();
const { admin } = useUsers(() => server.db, { admin: 'admin' });

describe('message template screens', () => {
  it('creates a template with a bold caption, a placeholder and an image, then edits it', async () => {
    const { context, page } = await openAs(browser, server, admin, '/message');
    await expect.poll(() => page.getByText('Kosong').count()).toBe(1);
    const alerted = catchDialog(page);
    await page.getByRole('button', { name: 'Export JSON' }).click();
    await expect.poll(alerted).toBe('No messages to export.');

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
    await page.setInputFiles('input[name=media]', { name: 'promo.png', mimeType: 'image/png', buffer: TINY_PNG });
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
    const { context, page } = await openAs(browser, server, admin, '/message/create');
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
