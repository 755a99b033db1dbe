import { WITHDRAW_MINIMUM_MSG, WITHDRAW_REQUESTED_MSG } from '@wa/shared';
import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildDaily } from '../../core/src/ledger/daily';
import type { TestUser } from '../support/factories';
import { startTestServer, type TestServer } from '../support/server';
import { launchBrowser, newPage, signInAs } from './support/browser';

/**
 * Bonuses, referrals and withdrawals in Chromium (§2 Bonus, referral, Withdraw; §4 Withdraw status;
 * §8 dialogs): an admin sends a bonus; a member asks for a withdrawal, is sent to complete the bank
 * details first, and sees the request; an admin accepts it; staff only look.
 */

let server: TestServer;
let browser: Browser;
let admin: TestUser;
let staff: TestUser;
let member: TestUser;
let referred: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  admin = await server.createUser({ role: 'admin' });
  staff = await server.createUser({ role: 'staff' });
  member = await server.createUser({ role: 'member', firstname: 'Wulan', lastname: 'Sari' });
  referred = await server.createUser({
    role: 'member',
    firstname: 'Dimas',
    lastname: 'Pratama',
    referrerId: member.id,
  });
  // Wulan earned Rp 50.000 blasting and Rp 1.500 from Dimas's blasts
  await server.db.execute(sql`insert into message_logs (user_id, target, status, fee, referrer_id, referral_fee) values
    (${member.id}, '6281300000001', 'sent', 50000, null, 0),
    (${referred.id}, '6281300000002', 'sent', 15000, ${member.id}, 1500)`);
  // written around the engine: the ledger's day rows are recounted from the logs
  await rebuildDaily(server.db, 'Asia/Jakarta');
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function visitAs(user: TestUser, path: string) {
  const { context, page } = await newPage(browser);
  await signInAs(context, server, user);
  await page.goto(`${server.url}${path}`);
  return { context, page };
}

describe('bonus', () => {
  it('an admin sends a member a bonus from /bonus/create and sees it in /bonus; the member sees it too', async () => {
    const { context, page } = await visitAs(admin, '/bonus');
    await page.getByRole('button', { name: 'Kirim Bonus' }).click();
    await page.waitForURL(`${server.url}/bonus/create`);
    await page.getByRole('button', { name: 'Kirim Bonus' }).click();
    await expect.poll(() => page.getByText('Member is required.').count()).toBe(1);
    expect(await page.getByText('Nominal is required.').count()).toBe(1);
    expect(await page.getByText('Keterangan is required.').count()).toBe(1);

    // ?id= preselects the member (the member list's 'Beri Bonus')
    await page.goto(`${server.url}/bonus/create?id=${member.id}`);
    await expect.poll(() => page.inputValue('select[name=userId]')).toBe(String(member.id));
    await page.fill('input[name=nominal]', '75000');
    await page.fill('textarea[name=reason]', 'Juara blast bulan ini');
    await page.getByRole('button', { name: 'Kirim Bonus' }).click();
    await expect.poll(() => page.getByText('Bonus berhasil dikirim.').count()).toBe(1);
    await page.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL(`${server.url}/bonus`);
    const row = page.locator('tbody tr').first();
    await expect.poll(() => row.textContent()).toContain('Wulan Sari');
    expect(await row.textContent()).toContain('Rp 75.000');
    expect(await row.textContent()).toContain('Juara blast bulan ini');
    expect(await page.locator('thead').textContent()).toContain('Action');
    await context.close();

    const mine = await visitAs(member, '/bonus');
    await expect.poll(() => mine.page.getByTestId('total-bonus-value').textContent()).toBe('Rp 75.000');
    const head = await mine.page.locator('thead').textContent();
    expect(head).toContain('Diterima Pada');
    expect(head).not.toContain('Member');
    expect(head).not.toContain('Action');
    await expect.poll(() => mine.page.locator('tbody').textContent()).toContain('Juara blast bulan ini');
    expect(await mine.page.getByRole('button', { name: 'Kirim Bonus' }).count()).toBe(0);
    await mine.context.close();
  });
});

describe('referral', () => {
  it("lists a member's referred users with what each earned them, and copies the signup link", async () => {
    const { context, page } = await visitAs(member, '/referral');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Daftar Referal');
    const row = page.locator('tbody tr').first();
    await expect.poll(() => row.textContent()).toContain('Dimas');
    expect(await row.textContent()).toContain('Pratama');
    expect(await row.textContent()).toContain(referred.email);
    expect(await row.textContent()).toContain('Rp 1.500');

    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.goto(`${server.url}/profile`);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.getByText('Link copied to clipboard!').count()).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${server.url}/signup?referral=${member.referral_code}`,
    );
    await context.close();
  });
});

describe('withdraw', () => {
  it('a member requests a withdrawal: the minimum, the bank details first, then the success dialog and the row', async () => {
    const { context, page } = await visitAs(member, '/withdraw');
    // balance: income 50.000 + referral 1.500 + bonus 75.000
    await expect.poll(() => page.getByTestId('balance-value').textContent()).toBe('Rp 126.500');
    expect(await page.inputValue('input[name=nominal]')).toBe('10000');

    await page.fill('input[name=nominal]', '9000');
    await page.getByRole('button', { name: 'Kirim Permintaan' }).click();
    await expect.poll(() => page.getByText(WITHDRAW_MINIMUM_MSG).count()).toBe(1);

    // no bank details yet: the 'Gagal' dialog, whose OK opens the profile editor
    await page.fill('input[name=nominal]', '20000');
    await page.getByRole('button', { name: 'Kirim Permintaan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Gagal' });
    await expect.poll(() => dialog.count()).toBe(1);
    expect(await dialog.textContent()).toContain('Data rekening belum lengkap');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL(`${server.url}/profile?edit=1`);
    await page.getByTestId('profile-edit-form').waitFor();
    await page.selectOption('select[name=account_bank]', 'BCA');
    await page.fill('input[name=account_number]', '8800112233');
    await page.fill('input[name=account_name]', 'Wulan Sari');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByText('Profil berhasil disimpan.').count()).toBe(1);

    await page.goto(`${server.url}/withdraw`);
    await expect.poll(() => page.getByTestId('balance-value').textContent()).toBe('Rp 126.500');
    await page.fill('input[name=nominal]', '20000');
    await page.getByRole('button', { name: 'Kirim Permintaan' }).click();
    await expect.poll(() => page.getByText(WITHDRAW_REQUESTED_MSG).count()).toBe(1);
    await page.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => page.getByTestId('balance-value').textContent()).toBe('Rp 106.500');
    expect(await page.getByTestId('requested-value').textContent()).toBe('Rp 20.000');
    const row = page.locator('tbody tr').first();
    await expect.poll(() => row.textContent()).toContain('Rp 20.000');
    expect(await row.textContent()).toContain('requested');
    expect(await row.textContent()).toContain('BCA · 8800112233 · Wulan Sari');

    // more than the balance is refused with the server's text
    await page.fill('input[name=nominal]', '200000');
    await page.getByRole('button', { name: 'Kirim Permintaan' }).click();
    await expect.poll(() => page.getByText('Saldo tidak mencukupi. Saldo Anda saat ini Rp 106.500.').count()).toBe(1);
    await context.close();
  });

  it('staff see the requests without approval buttons or transfer details', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, staff);
    // the page is not only silent about them: the answer it reads does not carry them
    const answer = page.waitForResponse((r) => r.url().includes('/api/admin/withdraw/histories-per-page'));
    await page.goto(`${server.url}/withdraw/requested`);
    const body = await (await answer).text();
    expect(body).toContain('Wulan');
    expect(body).not.toContain('8800112233');
    expect(body).not.toContain('account_');
    const row = page.locator('tbody tr').first();
    await expect.poll(() => row.textContent()).toContain('Wulan Sari');
    expect(await row.textContent()).toContain('Rp 20.000');
    expect(await page.getByRole('button', { name: 'Terima' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Tolak' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Detail transfer/ }).count()).toBe(0);
    expect(await page.locator('thead').textContent()).not.toContain('Action');
    expect(await page.locator('tbody').textContent()).not.toContain('8800112233');
    await context.close();
  });

  it('an admin opens the transfer details and accepts, then cancels', async () => {
    const { context, page } = await visitAs(admin, '/withdraw/requested');
    await page.getByRole('button', { name: 'Detail transfer Wulan Sari' }).click();
    const detail = page.locator('[data-testid^="transfer-"]');
    await expect.poll(() => detail.textContent()).toContain('8800112233');
    expect(await detail.textContent()).toContain('BCA');
    expect(await detail.textContent()).toContain('Wulan Sari');

    await page.getByRole('button', { name: 'Terima' }).click();
    await expect.poll(() => page.getByText('Permintaan withdraw Diterima').count()).toBe(1);
    const row = page.locator('tbody tr').first();
    await expect.poll(() => row.textContent()).toContain('accepted');
    await page.getByRole('button', { name: 'Batalkan' }).click();
    await expect.poll(() => page.getByText('Dibatalkan', { exact: true }).count()).toBe(1);
    await expect.poll(() => row.textContent()).toContain('requested');
    await page.getByRole('button', { name: 'Terima' }).click();
    await expect.poll(() => row.textContent()).toContain('accepted');
    await context.close();

    const mine = await visitAs(member, '/withdraw');
    await expect.poll(() => mine.page.locator('tbody tr').first().textContent()).toContain('accepted');
    await expect.poll(() => mine.page.getByTestId('accepted-value').textContent()).toBe('Rp 20.000');
    await mine.context.close();
  });

  it('an admin cannot delete a bonus the member has already withdrawn: the text shows and the row stays', async () => {
    const rina = await server.createUser({ role: 'member', firstname: 'Rina', lastname: 'Wati' });
    await server.db.execute(sql`insert into bonuses (user_id, admin_id, nominal, reason)
      values (${rina.id}, ${admin.id}, 10000, 'Bonus Rina')`);
    await server.db.execute(sql`insert into withdrawals (user_id, nominal, status, account_name, account_bank, account_number)
      values (${rina.id}, 10000, 'requested', 'Rina Wati', 'BRI', '123')`);
    const { context, page } = await visitAs(admin, '/bonus');
    const row = page.locator('tbody tr', { hasText: 'Bonus Rina' });
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Ya, Hapus.' }).click();
    const refused = 'Bonus tidak dapat dihapus karena saldo member tidak mencukupi (saldo Rp 0, bonus Rp 10.000).';
    await expect.poll(() => page.getByText(refused).count()).toBe(1);
    expect(await row.count()).toBe(1);
    await page.reload();
    await expect.poll(() => page.locator('tbody tr', { hasText: 'Bonus Rina' }).count()).toBe(1);
    await context.close();
  });
});
