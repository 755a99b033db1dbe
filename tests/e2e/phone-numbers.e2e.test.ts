import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useUsers } from '../support/factories';
import { useTestServer } from '../support/server';
import { catchDialog, openAs, useBrowser } from './support/browser';

const server = useTestServer();
const browser = useBrowser();
const { admin } = useUsers(() => server.db, { admin: 'admin' });
const adminPage = (path: string) => openAs(browser, server, admin, path);

describe('phone numbers screens', () => {
  it("shows 'Kosong' before anything is imported, and refuses an empty export", async () => {
    const { context, page } = await adminPage('/phonenumber');
    await expect.poll(() => page.getByText('Kosong').count()).toBe(1);
    const alerted = catchDialog(page);
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await expect.poll(alerted).toBe('No phone numbers to export.');
    expect(await page.getByTestId('pagination').count()).toBe(0);
    await context.close();
  });

  it('imports a file and previews the first five skipped rows with the total and downloads', async () => {
    const { context, page } = await adminPage('/phonenumber/create');
    const rows = ['number,name,status'];
    for (let i = 0; i < 12; i++) rows.push(`0812000000${String(i).padStart(2, '0')},Warga ${i},active`);
    rows.push('081200000001,Dobel,active', '081200000002,Dobel,active', 'abc,Rusak,active', ',Kosong,active');
    rows.push('081200000003,Dobel,active', '081200000004,Dobel,active', '081200000005,Dobel,active');
    await page.setInputFiles('input[name=file]', {
      name: 'numbers.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(rows.join('\n')),
    });
    await page.getByRole('button', { name: 'Upload File' }).click();
    await expect.poll(() => page.getByText('Total 12 nomor, berhasil didaftarkan.').count()).toBe(1);
    expect(await page.getByText('Daftar nomor yang dilewatkan').count()).toBe(1);
    expect(await page.getByTestId('skipped-row').count()).toBe(5);
    expect(await page.getByTestId('skipped-row').first().textContent()).toContain('6281200000001');
    expect(await page.getByText('...total 7 nomor. Download file untuk selengkapnya.').count()).toBe(1);
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe('phone_numbers_skipped.csv');
    const text = readFileSync((await csv.path()) as string, 'utf8');
    // the server's full list: each skipped row with its line and reason (issue 19)
    expect(text.split('\n')[0]).toBe('line,number,name,status,id,reason');
    expect(text.trim().split('\n')).toHaveLength(8);
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON' }).click(),
    ]);
    expect(json.suggestedFilename()).toBe('phone_numbers_skipped.json');
    expect(JSON.parse(readFileSync((await json.path()) as string, 'utf8'))).toHaveLength(7);
    await context.close();
  });

  it('refuses a file of another type, and shows the server refusal of a broken JSON file', async () => {
    const { context, page } = await adminPage('/phonenumber/create');
    await page.setInputFiles('input[name=file]', { name: 'n.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await page.getByRole('button', { name: 'Upload File' }).click();
    await expect.poll(() => page.getByText('Only .csv and .json files are accepted.').count()).toBe(1);
    await page.setInputFiles('input[name=file]', {
      name: 'n.json',
      mimeType: 'application/json',
      buffer: Buffer.from('[{"number":'),
    });
    await page.getByRole('button', { name: 'Upload File' }).click();
    await expect.poll(() => page.getByText(/The JSON file is/).count()).toBe(1);
    await context.close();
  });

  it('pages with Page X of Y kept in ?page=, deletes with Deleting..., and exports by streaming', async () => {
    const { context, page } = await adminPage('/phonenumber');
    await expect.poll(() => page.getByText('Page 1 of 2').count()).toBe(1);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(`${server.url}/phonenumber?page=2`);
    await expect.poll(() => page.getByText('Page 2 of 2').count()).toBe(1);
    // the pager can show page 2 before its rows arrive: wait for the rows themselves
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    // hold the delete until the row's transient text has been seen
    let release: () => void = () => {};
    const seen = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/api/admin/phonenumber/*', async (route) => {
      if (route.request().method() === 'DELETE') await seen;
      await route.continue();
    });
    const firstRow = page.locator('tbody tr').first();
    const number = (await firstRow.locator('td').first().textContent()) ?? '';
    await firstRow.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByText('Deleting...').count()).toBe(1);
    release();
    await expect.poll(() => page.locator('tbody').textContent()).not.toContain(number);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('phone_numbers.csv');
    const lines = readFileSync((await download.path()) as string, 'utf8')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('number,name,status');
    expect(lines).toHaveLength(12);
    await context.close();
  });

  it('saves a number by hand and goes back; a duplicate shows the server error', async () => {
    const { context, page } = await adminPage('/phonenumber');
    await page.getByRole('button', { name: 'Tambah' }).click();
    await page.waitForURL(`${server.url}/phonenumber/create`);
    await page.getByRole('button', { name: 'Simpan Nomor' }).click();
    expect(await page.getByText('Nomor Telepon is required.').count()).toBe(1);
    await page.fill('input[name=number]', '0812 9999 0000');
    await page.fill('input[name=name]', 'Manual');
    await page.getByRole('button', { name: 'Simpan Nomor' }).click();
    await page.waitForURL(`${server.url}/phonenumber`);
    await page.goto(`${server.url}/phonenumber/create`);
    await page.fill('input[name=number]', '6281299990000');
    await page.fill('input[name=name]', 'Again');
    await page.getByRole('button', { name: 'Simpan Nomor' }).click();
    await expect.poll(() => page.getByText('Error: Nomor 6281299990000 sudah terdaftar.').count()).toBe(1);
    await context.close();
  });

  it('edits a number: status off, saved, back to the list', async () => {
    const { context, page } = await adminPage('/phonenumber');
    await page.getByRole('link', { name: 'Edit' }).first().click();
    await page.waitForURL(/\/phonenumber\/edit\?id=\d+/);
    const checkbox = page.locator('input[name=status]');
    await checkbox.waitFor();
    await checkbox.uncheck();
    await page.getByRole('button', { name: 'Simpan' }).click();
    await page.waitForURL(`${server.url}/phonenumber`);
    await expect.poll(() => page.locator('tbody').getByText('nonactive', { exact: true }).count()).toBe(1);
    await page.goto(`${server.url}/phonenumber/edit?id=999999`);
    await expect.poll(() => page.getByText('Error: Phone number not found').count()).toBe(1);
    await context.close();
  });
});
