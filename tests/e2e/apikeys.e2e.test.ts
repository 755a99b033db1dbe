// The profile's API Key section: a member makes a key (with the current password), sees it once,
// sees it listed without the key, and revokes it; the 409 at the cap shows the server's message.
import { API_KEY_CAP, API_KEY_TEXTS } from '@wa/shared';
import { describe, expect, it } from 'vitest';
import { useUsers } from '../support/factories';
import { useTestServer } from '../support/server';
import { openAs, useBrowser } from './support/browser';

const server = useTestServer();
const browser = useBrowser();
const { member, full } = useUsers(() => server.db, { member: 'member', full: 'member' });

/** A read with the API key instead of a session: the member's own user record. */
const readWith = (key: string, id: number) =>
  fetch(`${server.url}/api/admin/users/${id}`, { headers: { 'X-API-Key': key } });

describe('API keys on the profile', () => {
  it('a member creates a key, sees it once, sees it listed without it, and revokes it', async () => {
    const { context, page } = await openAs(browser, server, member, '/profile');
    const form = page.getByTestId('api-key-form');
    await form.waitFor();
    await expect.poll(() => page.getByText('0 dari 20 key').count()).toBe(1);
    expect(await form.locator('..').getByText('Kosong').count()).toBe(1);

    // the name is required
    await form.getByRole('button', { name: 'Buat API Key' }).click();
    await expect.poll(() => form.getByText('Name is required.').count()).toBe(1);

    // and the current password (issue 24): a wrong one is said under the field
    await page.fill('input[name=name]', 'Integrasi CRM');
    await page.locator('input[name=read_only]').check();
    await form.getByRole('button', { name: 'Buat API Key' }).click();
    const passwordError = form.locator('[data-field-error=current_password]');
    await expect.poll(() => passwordError.textContent()).toBe(API_KEY_TEXTS.passwordRequired);
    await form.locator('input[name=current_password]').fill('not-the-password');
    await form.getByRole('button', { name: 'Buat API Key' }).click();
    await expect.poll(() => passwordError.textContent()).toBe(API_KEY_TEXTS.passwordWrong);
    await form.locator('input[name=current_password]').fill(member.password);
    await form.getByRole('button', { name: 'Buat API Key' }).click();
    const box = page.getByTestId('new-api-key');
    await box.waitFor();
    expect(await box.getByText('Simpan key ini sekarang — tidak akan ditampilkan lagi.').count()).toBe(1);
    expect(await box.getByRole('button', { name: 'Salin' }).count()).toBe(1);
    const key = await page.getByTestId('new-api-key-value').inputValue();
    expect(key).toMatch(/^wab_.{20,}$/);

    const row = page.locator('tbody tr', { hasText: 'Integrasi CRM' });
    await expect.poll(() => row.count()).toBe(1);
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('Baca saja');
    expect(text).toContain('Belum pernah');
    expect(text).toContain('…');
    expect(text).not.toContain(key);
    expect(await page.getByText('1 dari 20 key').count()).toBe(1);

    // the key works, and after a reload it is never shown again
    expect((await readWith(key, member.id)).status).toBe(200);
    await page.reload();
    await expect.poll(() => page.locator('tbody tr', { hasText: 'Integrasi CRM' }).count()).toBe(1);
    expect(await page.getByTestId('new-api-key').count()).toBe(0);
    expect((await page.content()).includes(key)).toBe(false);

    // revoke: asks first, Batal keeps it, Ya, Cabut. revokes it
    await page.getByRole('button', { name: 'Cabut' }).click();
    await page.getByRole('button', { name: 'Batal' }).click();
    expect(await page.locator('tbody tr', { hasText: 'Integrasi CRM' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Cabut' }).click();
    await page.getByRole('button', { name: 'Ya, Cabut.' }).click();
    await expect.poll(() => form.locator('..').getByText('Kosong').count()).toBe(1);
    const list = await fetch(`${server.url}/api/admin/apikeys`, {
      headers: { Authorization: `Bearer ${member.token}` },
    });
    expect(((await list.json()) as { data: unknown[] }).data).toEqual([]);
    expect((await readWith(key, member.id)).status).toBe(401);
    await context.close();
  });

  it('shows the server message at the cap', async () => {
    const token = full.token;
    for (let i = 0; i < API_KEY_CAP; i++) {
      const res = await fetch(`${server.url}/api/admin/apikeys`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `k${i}`, current_password: full.password }),
      });
      expect(res.status).toBe(201);
    }
    const { context, page } = await openAs(browser, server, full, '/profile');
    await expect.poll(() => page.getByText(`${API_KEY_CAP} dari 20 key`).count()).toBe(1);
    await page.fill('input[name=name]', 'satu lagi');
    await page.getByTestId('api-key-form').locator('input[name=current_password]').fill(full.password);
    await page.getByRole('button', { name: 'Buat API Key' }).click();
    await expect.poll(() => page.getByText(`Error: ${API_KEY_TEXTS.cap(API_KEY_CAP)}`).count()).toBe(1);
    expect(await page.getByTestId('new-api-key').count()).toBe(0);
    await context.close();
  });
});
