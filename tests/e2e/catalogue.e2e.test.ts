import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useUsers } from '../support/factories';
import { useTestServer } from '../support/server';
import { openAs, useBrowser } from './support/browser';

const server = useTestServer();
const browser = useBrowser();
const { admin, member } = useUsers(() => server.db, {
  admin: 'admin',
  member: { role: 'member', firstname: 'Wulan', lastname: 'Sari' },
});
beforeAll(async () => {
  for (let i = 0; i < 11; i++) await server.createUser({ role: 'member', firstname: `Anggota${i}` });
});
const adminPage = (path: string) => openAs(browser, server, admin, path);

describe('levels, settings and members screens', () => {
  it('creates and edits a level with the success dialog, refusing bad input first', async () => {
    const { context, page } = await adminPage('/level');
    await page.getByRole('button', { name: 'Tambah Level' }).click();
    await page.waitForURL(`${server.url}/level/create`);
    await page.fill('input[name=name]', 'Gold');
    await page.fill('input[name=blast_fee]', 'mahal');
    await page.getByRole('button', { name: 'Simpan' }).click();
    expect(await page.getByText('Blast fee must be a number.').count()).toBe(1);
    expect(await page.getByText('Requirement blast is required.').count()).toBe(1);
    await page.fill('input[name=blast_fee]', '150');
    await page.fill('input[name=requirement_blast]', '500');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await expect.poll(() => page.getByText('Level berhasil disimpan.').count()).toBe(1);
    await page.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL(`${server.url}/level`);
    await expect.poll(() => page.getByText('Rp 150').count()).toBe(1);
    await page.getByRole('link', { name: 'Edit' }).click();
    await expect.poll(() => page.inputValue('input[name=name]')).toBe('Gold');
    await page.fill('input[name=name]', 'Gold Plus');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await page.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => page.getByText('Gold Plus').count()).toBe(1);
    await context.close();
  });

  it('saves the settings form and refuses an empty field and a bad percent', async () => {
    const { context, page } = await adminPage('/settings');
    await expect.poll(() => page.inputValue('input[name=bank_names]')).toBe('BCA, MANDIRI, BRI');
    await page.fill('input[name=referral_percent]', '150');
    await page.fill('textarea[name=info]', '');
    await page.getByRole('button', { name: 'Simpan' }).click();
    expect(await page.getByText('Referral percent must be at most 100.').count()).toBe(1);
    expect(await page.getByText('Info is required.').count()).toBe(1);
    await page.fill('input[name=referral_percent]', '5');
    await page.fill('textarea[name=info]', 'Bonus akhir tahun!');
    await page.fill('input[name=bank_names]', 'BCA,BNI');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await expect.poll(() => page.getByText('Pengaturan berhasil disimpan.').count()).toBe(1);
    await page.getByRole('button', { name: 'OK' }).click();
    expect(await page.inputValue('input[name=bank_names]')).toBe('BCA, BNI');
    await context.close();
  });

  it('lists members with paging, searches by name, and edits a member interval and fee', async () => {
    const { context, page } = await adminPage('/member');
    await expect.poll(() => page.getByText('Page 1 of 2').count()).toBe(1);
    await page.fill('input[name=s]', 'wulan');
    await page.getByRole('button', { name: 'Cari' }).click();
    await page.waitForURL(/s=wulan/);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody').textContent()).toContain('Wulan Sari');
    expect(await page.getByRole('link', { name: 'Beri Bonus' }).getAttribute('href')).toBe(
      `/bonus/create?id=${member.id}`,
    );
    await page.locator('tbody').getByRole('link', { name: 'Pengaturan' }).click();
    await page.waitForURL(`${server.url}/member/edit?id=${member.id}`);
    await expect.poll(() => page.inputValue('input[name=blast_fee]')).not.toBe('');
    await page.fill('input[name=blast_interval_min]', '20');
    await page.fill('input[name=blast_interval_max]', '10');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await expect
      .poll(() => page.getByText('Error: Interval minimal harus lebih kecil dari interval maksimal').count())
      .toBe(1);
    await page.fill('input[name=blast_interval_max]', '30');
    await page.fill('input[name=blast_fee]', '99');
    await page.getByRole('button', { name: 'Simpan' }).click();
    await page.waitForURL(/\/member\?/);
    const saved = await fetch(`${server.url}/api/admin/users/${member.id}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    }).then((r) => r.json());
    expect(saved.user).toMatchObject({ blast_interval_min: 20, blast_interval_max: 30, blast_fee: 99 });
    // 'Filter Status': Wulan has an account connected, so she alone is active
    await server.db.execute(
      sql`insert into whatsapp_accounts (clientid, user_id, phonenumber, state) values ('id-1760000000000-1', ${member.id}, '6281200000001', 'connected')`,
    );
    await page.goto(`${server.url}/member`);
    await page.getByLabel('Filter Status').selectOption('active');
    await page.waitForURL(/status=active/);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody').textContent()).toContain('Wulan Sari');
    await page.getByLabel('Filter Status').selectOption('inactive');
    await page.waitForURL(/status=inactive/);
    await expect.poll(() => page.getByText('Page 1 of 2').count()).toBe(1);
    expect(await page.locator('tbody').textContent()).not.toContain('Wulan Sari');
    await page.goto(`${server.url}/member/edit?id=424242`);
    await expect.poll(() => page.getByText('No User Found').count()).toBe(1);
    await context.close();
  });
});
