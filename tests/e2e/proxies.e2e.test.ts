import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { useUsers } from '../support/factories';
import { useTestServer } from '../support/server';
import { catchDialog, openAs, useBrowser } from './support/browser';

const server = useTestServer();
const browser = useBrowser();
const { dev } = useUsers(() => server.db, { dev: 'dev' });

describe('proxy screens', () => {
  it('imports proxies with the skipped note, lists them with use counts, edits and deletes', async () => {
    const { context, page } = await openAs(browser, server, dev, '/proxy');
    await expect.poll(() => page.getByText('Kosong').count()).toBe(1);
    const alerted = catchDialog(page);
    await page.getByRole('button', { name: 'Export JSON' }).click();
    await expect.poll(alerted).toBe('No proxies to export.');

    await page.getByRole('button', { name: 'Tambah' }).click();
    const csv = ['value,status', '10.0.0.1:8080,active', '10.0.0.2:8080,active'];
    for (let i = 0; i < 6; i++) csv.push('10.0.0.1:8080,active');
    csv.push('not a proxy,active');
    await page.setInputFiles('input[name=file]', {
      name: 'p.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv.join('\n')),
    });
    await page.getByRole('button', { name: 'Upload File' }).click();
    await expect.poll(() => page.getByText('Total 2 proxy, berhasil didaftarkan.').count()).toBe(1);
    expect(await page.getByText('Daftar proxy yang dilewatkan').count()).toBe(1);
    expect(await page.getByText('...total 7 proxy. Download file untuk selengkapnya.').count()).toBe(1);
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON' }).click(),
    ]);
    expect(json.suggestedFilename()).toBe('proxies_skipped.json');

    await page.fill('input[name=value]', '10.0.0.1:8080');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await expect.poll(() => page.getByText('Error: Proxy 10.0.0.1:8080 sudah terdaftar.').count()).toBe(1);

    await page.goto(`${server.url}/proxy`);
    await expect.poll(() => page.getByText('0 kali').count()).toBe(2);
    await page.getByRole('link', { name: 'Edit' }).first().click();
    await page.locator('input[name=status]').uncheck();
    await page.getByRole('button', { name: 'Simpan' }).click();
    await page.waitForURL(`${server.url}/proxy`);
    await expect.poll(() => page.getByText('nonactive').count()).toBe(1);
    await page.getByRole('button', { name: 'Delete' }).first().click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await context.close();
  });

  it("keeps a proxy 'in use' through an edit that leaves its box on, or turns it off and on again", async () => {
    await server.db.execute(sql`insert into proxies (value, status, count_use) values ('10.9.9.9:3128', 'in use', 1)`);
    const [proxy] = await rows<{ id: number }>(server.db, sql`select id from proxies where value = '10.9.9.9:3128'`);
    const id = proxy?.id;
    // from the list, as a user would: saving goes back to it
    const { context, page } = await openAs(browser, server, dev, '/proxy');
    await page.locator('tr', { hasText: '10.9.9.9:3128' }).getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${server.url}/proxy/edit?id=${id}`);
    const box = page.locator('input[name=status]');
    await expect.poll(() => box.isChecked()).toBe(true);
    await box.uncheck();
    await box.check();
    await page.fill('input[name=value]', '10.9.9.9:3129');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await page.waitForURL(`${server.url}/proxy`);
    const row = page.locator('tr', { hasText: '10.9.9.9:3129' });
    await expect.poll(() => row.textContent()).toContain('in use');
    await context.close();
  });
});
