// The profile's Webhook section (issue 13): an admin adds an endpoint at a local address, sees its
// secret once, pauses and resumes it, reads a failed delivery and sends it again (the local receiver
// gets it, signed with that secret), and deletes it after confirming; a member is refused a plain
// http:// address with the server's message.
import { randomUUID } from 'node:crypto';
import { WEBHOOK_CAP, WEBHOOK_HEADERS, WEBHOOK_TEXTS, type WebhookDto } from '@wa/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, useUsers } from '../support/factories';
import { useTestServer } from '../support/server';
import { verifySignature, WebhookReceiver } from '../support/webhook-receiver';
import { WebhooksCard } from './pages/webhooks.page';
import { openAs, useBrowser } from './support/browser';

const server = useTestServer({ deliverWebhooks: true });
const receiver = new WebhookReceiver();
beforeAll(async () => {
  await receiver.start();
  receiver.respond = () => 204;
});
afterAll(async () => {
  await receiver.close();
});
const browser = useBrowser();
const { admin, member, staff } = useUsers(() => server.db, { admin: 'admin', member: 'member', staff: 'staff' });

async function listAs(user: TestUser): Promise<WebhookDto[]> {
  const res = await fetch(`${server.url}/api/admin/webhooks`, { headers: { Authorization: `Bearer ${user.token}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: WebhookDto[] }).data;
}

describe('webhooks on the profile', () => {
  it('an admin adds one at a local address, sees the secret once, pauses, resends a delivery and deletes it', async () => {
    const { context, page } = await openAs(browser, server, admin, '/profile');
    const card = new WebhooksCard(page);
    await card.form().waitFor();
    await expect.poll(() => page.getByText(`0 dari ${WEBHOOK_CAP} webhook`).count()).toBe(1);

    // the url and at least one event are required
    await card.submit();
    await expect.poll(() => card.form().getByText('url is required.').count()).toBe(1);
    expect(await card.form().getByText('Choose at least one event.').count()).toBe(1);

    const url = receiver.url();
    await card.fill(url, ['message.sent', 'optout'], 'Penerima lokal');
    await card.submit();
    await card.secretBox().waitFor();
    const box = card.secretBox();
    expect(await box.getByText('Simpan secret ini sekarang — tidak akan ditampilkan lagi.').count()).toBe(1);
    expect(await box.getByRole('button', { name: 'Salin' }).count()).toBe(1);
    expect(await box.textContent()).toContain(`${WEBHOOK_HEADERS.signature} = sha256=HMAC-SHA256`);
    const secret = await card.secret();
    expect(secret).toMatch(/^whsec_.{20,}$/);

    const row = card.row(url);
    await expect.poll(() => row.count()).toBe(1);
    const text = (await row.textContent()) ?? '';
    for (const part of ['Penerima lokal', 'message.sent', 'optout', 'Aktif', 'Belum ada']) expect(text).toContain(part);
    expect(text).not.toContain('account.state');
    expect(text).not.toContain(secret);
    expect(await page.getByText(`1 dari ${WEBHOOK_CAP} webhook`).count()).toBe(1);
    // the form is empty again
    expect(await card.form().locator('input[name=url]').inputValue()).toBe('');
    expect(await card.form().locator('input[name="event:optout"]').isChecked()).toBe(false);

    // after a reload the secret is never shown again
    await page.reload();
    await expect.poll(() => card.row(url).count()).toBe(1);
    expect(await card.secretBox().count()).toBe(0);
    expect((await page.content()).includes(secret)).toBe(false);

    // pause and resume
    await row.getByRole('button', { name: 'Jeda', exact: true }).click();
    await expect.poll(() => row.getByText('Dijeda').count()).toBe(1);
    expect((await listAs(admin))[0].active).toBe(false);
    await row.getByRole('button', { name: 'Lanjutkan' }).click();
    await expect.poll(() => row.getByText('Aktif').count()).toBe(1);
    expect((await listAs(admin))[0].active).toBe(true);

    // a delivery that failed, written straight into the database
    const [hook] = await listAs(admin);
    const eventId = randomUUID();
    const body = JSON.stringify({
      id: eventId,
      event: 'message.sent',
      created_at: new Date().toISOString(),
      data: { target: '6281234567890' },
    });
    await server.db.execute(sql`insert into webhook_deliveries
        (endpoint_id, event, event_id, body, status, attempts, error, last_attempt_at, next_attempt_at)
        values (${hook.id}, 'message.sent', ${eventId}, ${body}, 'failed', 1, 'connect ECONNREFUSED', now(), null)`);
    await page.reload();
    await expect.poll(() => card.row(url).getByText('Gagal').count()).toBe(1);

    await row.getByRole('button', { name: 'Pengiriman', exact: true }).click();
    await card.dialog().waitFor();
    await expect.poll(() => card.deliveries().count()).toBe(1);
    const failed = (await card.deliveries().first().textContent()) ?? '';
    for (const part of ['message.sent', 'Gagal', 'connect ECONNREFUSED']) expect(failed).toContain(part);
    await card.dialog().getByRole('button', { name: 'Lihat body' }).click();
    await expect.poll(() => card.bodies().count()).toBe(1);
    expect(await card.bodies().textContent()).toContain('"target": "6281234567890"');

    // Kirim ulang: a new delivery of the same event, posted to the receiver, signed with the secret
    await card.dialog().getByRole('button', { name: 'Kirim ulang' }).click();
    await expect.poll(() => card.deliveries().count()).toBe(2);
    expect(await card.deliveries().first().textContent()).toMatch(/Menunggu|Terkirim/);
    await expect.poll(() => receiver.received.length).toBe(1);
    const got = receiver.received[0];
    expect(got.body).toBe(body);
    expect(got.headers[WEBHOOK_HEADERS.event.toLowerCase()]).toBe('message.sent');
    expect(verifySignature(got, secret)).toBe(true);
    await expect
      .poll(async () => {
        await card.dialog().getByRole('button', { name: 'Muat ulang' }).click();
        return card.deliveries().first().textContent();
      })
      .toContain('Terkirim');
    expect(await card.deliveries().first().textContent()).toContain('204');
    expect(await card.deliveries().nth(1).textContent()).toContain('Gagal');
    await page.keyboard.press('Escape');
    await expect.poll(() => card.dialog().count()).toBe(0);
    await expect.poll(() => row.getByText('Terkirim').count()).toBe(1);

    // delete: asks first, Batal keeps it, Ya, Hapus. deletes it
    await row.getByRole('button', { name: 'Hapus', exact: true }).click();
    await page.getByRole('button', { name: 'Batal' }).click();
    expect(await card.row(url).count()).toBe(1);
    await row.getByRole('button', { name: 'Hapus', exact: true }).click();
    await page.getByRole('button', { name: 'Ya, Hapus.' }).click();
    await expect.poll(() => card.row(url).count()).toBe(0);
    expect(await page.getByText(`0 dari ${WEBHOOK_CAP} webhook`).count()).toBe(1);
    expect(await listAs(admin)).toEqual([]);
    await context.close();
  });

  it('refuses a member a plain http:// address with the server message', async () => {
    const { context, page } = await openAs(browser, server, member, '/profile');
    const card = new WebhooksCard(page);
    await card.form().waitFor();
    await card.fill(receiver.url(), ['withdraw.status']);
    await card.submit();
    await expect.poll(() => page.getByText(`Error: ${WEBHOOK_TEXTS.httpsOnly}`).count()).toBe(1);
    expect(WEBHOOK_TEXTS.httpsOnly).toBe('url must be an https:// address.');
    expect(await card.secretBox().count()).toBe(0);
    // what was typed stays, to be corrected
    expect(await card.form().locator('input[name=url]').inputValue()).toBe(receiver.url());
    expect(await listAs(member)).toEqual([]);
    await context.close();
  });

  it('shows staff no Webhook section: they have none (the server refuses them too)', async () => {
    const { context, page } = await openAs(browser, server, staff, '/profile');
    // the API key section is there, so the page has drawn its cards
    await page.getByText('API Key').first().waitFor();
    expect(await new WebhooksCard(page).form().count()).toBe(0);
    expect(await page.getByText('Webhook', { exact: true }).count()).toBe(0);
    const res = await fetch(`${server.url}/api/admin/webhooks`, {
      headers: { Authorization: `Bearer ${staff.token}` },
    });
    expect(res.status).toBe(403);
    await context.close();
  });
});
