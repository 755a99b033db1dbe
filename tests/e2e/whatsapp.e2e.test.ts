import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { publishToUser } from '../../core/src/realtime/publish';
import type { TestUser } from '../support/factories';
import { launchBrowser, newPage, signInAs } from './support/browser';
import { type EngineTestServer, startEngineTestServer } from './support/engine-server';

let server: EngineTestServer;
let browser: Browser;
let member: TestUser;
let other: TestUser;
let admin: TestUser;

interface Account {
  id: number;
  clientid: string;
  phonenumber: string;
  state: string | null;
  user_id: number;
}

/** the account saved for a device id, once it is saved */
async function accountByClientId(clientid: string): Promise<Account | undefined> {
  const [row] = await rows<Account>(
    server.db,
    sql`select id, clientid, phonenumber, state, user_id from whatsapp_accounts where clientid = ${clientid}`,
  );
  return row;
}

// a table row, or below 768 px the account's card
const row = (page: Page, id: number) => page.locator(`[data-row="${id}"]`);
const stateOf = (page: Page, id: number) => row(page, id).getByTestId('wa-state').textContent();
/** polls until the value matches; the server, worker and socket get a few seconds */
const eventually = <T>(fn: () => T | Promise<T>, timeout = 10_000) => expect.poll(fn, { timeout });
/** the page's realtime socket is open (the list and create pages show a 'Live' dot) */
const liveReady = (page: Page) => page.locator('[data-live="on"]').first().waitFor();

// accounts connected by the first tests and used by the later ones
let qrAccount: Account;
let pairedAccount: Account;

beforeAll(async () => {
  // a phone that "scans" 2.5 s after the code appears, so the code and countdown can be seen first
  server = await startEngineTestServer({ pairDelayMs: 2500 });
  browser = await launchBrowser();
  member = await server.createUser({ role: 'member' });
  other = await server.createUser({ role: 'member' });
  admin = await server.createUser({ role: 'admin' });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('connecting a WhatsApp account', () => {
  it('connects by QR code: QR image and countdown, then back to the list with the account Connected', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, member);
    await page.goto(`${server.url}/whatsapp`);
    await eventually(() => page.getByTestId('page-title').textContent()).toBe('Daftar Whatsapp');
    await eventually(() => page.getByText('Kosong').count()).toBe(1);

    await page.getByRole('link', { name: 'Tambah' }).click();
    await page.waitForURL(`${server.url}/whatsapp/create`);
    await eventually(() => page.getByTestId('page-title').textContent()).toBe('Tambah Akun Whatsapp');
    const idInput = page.locator('input[name=deviceId]');
    const deviceId = await idInput.inputValue();
    expect(deviceId).toMatch(/^id-\d{10,16}-\d{1,4}$/);
    expect(await idInput.getAttribute('readonly')).not.toBeNull();
    await liveReady(page);

    await page.getByRole('button', { name: 'Generate QR Code' }).click();
    const qr = page.getByRole('img', { name: 'QR Code' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const countdown = Number((await page.getByTestId('countdown').textContent())?.match(/\d+/)?.[0]);
    expect(countdown).toBeGreaterThan(50);
    expect(countdown).toBeLessThanOrEqual(60);
    expect(await page.getByText('Jangan tutup atau muat ulang halaman ini sampai proses selesai.').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Generate QR Code' }).count()).toBe(0);

    // the simulated phone scans; the page hears `authenticated`, saves and goes back
    await page.waitForURL(`${server.url}/whatsapp`, { timeout: 15_000 });
    await eventually(() => accountByClientId(deviceId).then((a) => a?.state)).toBe('connected');
    qrAccount = (await accountByClientId(deviceId)) as Account;
    expect(qrAccount.user_id).toBe(member.id);
    await eventually(() => stateOf(page, qrAccount.id)).toBe('Connected');
    expect(await row(page, qrAccount.id).getByTestId('wa-number').textContent()).toBe(qrAccount.phonenumber);
    expect(await row(page, qrAccount.id).textContent()).toContain(deviceId);
    await context.close();
  });

  it('connects by pairing code at 390 px: refuses a number without 62, shows the code as XXXX-XXXX', async () => {
    const { context, page } = await newPage(browser, 390, 844);
    await signInAs(context, server, member);
    const newClientCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/admin/whatsapp/new-client')) newClientCalls.push(r.url());
    });
    await page.goto(`${server.url}/whatsapp/create`);
    await liveReady(page);
    await page.getByRole('button', { name: 'Nomor Telepon' }).click();
    const phone = page.locator('input[name=phoneNumber]');
    expect(await phone.getAttribute('placeholder')).toBe('6281xxxxxxx');
    await phone.fill('081355500011');
    await page.getByRole('button', { name: 'Generate Pairing Code' }).click();
    await eventually(() =>
      page.getByText('Nomor harus diawali 62 dan hanya berisi angka, contoh 6281xxxxxxx.').count(),
    ).toBe(1);
    expect(newClientCalls).toEqual([]);
    expect(await page.getByTestId('pairing-code').count()).toBe(0);

    await phone.fill('6281355500011');
    await page.getByRole('button', { name: 'Generate Pairing Code' }).click();
    const code = page.getByTestId('pairing-code');
    await code.waitFor();
    expect(await code.textContent()).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    // the pairing code lives 90 s, longer than a QR code's 60 s
    const countdown = Number((await page.getByTestId('countdown').textContent())?.match(/\d+/)?.[0]);
    expect(countdown).toBeGreaterThan(60);
    expect(countdown).toBeLessThanOrEqual(90);
    expect(newClientCalls).toHaveLength(1);

    await page.waitForURL(`${server.url}/whatsapp`, { timeout: 15_000 });
    const [acc] = await rows<Account>(
      server.db,
      sql`select id, clientid, phonenumber, state, user_id from whatsapp_accounts where phonenumber = '6281355500011'`,
    );
    expect(acc).toBeDefined();
    pairedAccount = acc;
    await eventually(() => stateOf(page, pairedAccount.id)).toBe('Connected');
    // usable at 390 px: the page itself does not scroll sideways (the table scrolls in its card)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });
});

describe('the account list', () => {
  it('follows live events: a dropped connection and a new count show without a reload', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, member);
    await page.goto(`${server.url}/whatsapp`);
    await liveReady(page);
    await eventually(() => stateOf(page, qrAccount.id)).toBe('Connected');
    expect(await row(page, qrAccount.id).getByRole('button', { name: 'Reconnect' }).count()).toBe(0);
    let navigations = 0;
    page.on('framenavigated', () => navigations++);

    server.sim().control(qrAccount.clientid).disconnect();
    await eventually(() => stateOf(page, qrAccount.id)).toBe('Disconnected');
    expect(await row(page, qrAccount.id).getByRole('button', { name: 'Reconnect' }).count()).toBe(1);
    expect(await stateOf(page, pairedAccount.id)).toBe('Connected');

    await publishToUser(server.bus, member.id, 'count_success', { deviceId: qrAccount.clientid, value: 7, income: 0 });
    const success = row(page, qrAccount.id).getByTestId('wa-success');
    await eventually(() => success.textContent()).toBe('7');
    expect(await success.getAttribute('class')).toContain('bg-green-100');
    // the flash lasts 1 s
    await eventually(() => success.getAttribute('class'), 3000).not.toContain('bg-green-100');
    expect(navigations).toBe(0);
    await context.close();
  });

  it('refuses Start Blast on a disconnected account and sends the user to reconnect it', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, member);
    await page.goto(`${server.url}/whatsapp`);
    await eventually(() => stateOf(page, qrAccount.id)).toBe('Disconnected');
    await row(page, qrAccount.id).getByRole('button', { name: 'Start Blast' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forbidden' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Sambungan terputus, silahkan sambungkan ulang!');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL(`${server.url}/whatsapp/create?r=${qrAccount.id}`);
    await eventually(() => page.getByText(`(${qrAccount.phonenumber})`).count()).toBe(1);
    await context.close();
  });

  it('asks before a reconnect that needs a new login', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, member);
    await page.goto(`${server.url}/whatsapp`);
    await row(page, qrAccount.id).getByRole('button', { name: 'Reconnect' }).click();
    const dialog = page.getByRole('dialog', { name: 'Warning!' });
    await dialog.getByRole('button', { name: 'Batal' }).click();
    expect(page.url()).toBe(`${server.url}/whatsapp`);
    await row(page, qrAccount.id).getByRole('button', { name: 'Reconnect' }).click();
    await page.getByRole('dialog', { name: 'Warning!' }).getByRole('button', { name: 'Ya, Reonnect.' }).click();
    await page.waitForURL(`${server.url}/whatsapp/create?r=${qrAccount.id}`);
    await context.close();
  });

  it('a start that the server refuses shows its message followed by "! Silahkan coba lagi."', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, member);
    await page.goto(`${server.url}/whatsapp`);
    await eventually(() => stateOf(page, pairedAccount.id)).toBe('Connected');
    await row(page, pairedAccount.id).getByRole('button', { name: 'Start Blast' }).click();
    // no active template yet: the server's refusal is what the member sees
    await eventually(() => page.getByRole('alert').textContent()).toBe(
      'Belum ada template pesan yang aktif! Silahkan coba lagi.',
    );
    expect(await row(page, pairedAccount.id).getByRole('button', { name: 'Start Blast' }).isEnabled()).toBe(true);
    await context.close();
  });

  it('blasts from the list: live counts and the waiting countdown, then Stop Blast after its confirm', async () => {
    await server.db.execute(sql`insert into message_templates (text, text_wa, status)
      values ('<p>Halo {name}</p>', 'Halo {name}', 'active')`);
    for (let i = 0; i < 5; i++) {
      await server.db.execute(
        sql`insert into phone_numbers (number, name) values (${`6289977700${i}`}, ${`Target ${i}`})`,
      );
    }
    // three seconds between messages: long enough to see the countdown and to stop in between
    await server.db.execute(
      sql`update users set blast_interval_min = 3, blast_interval_max = 3 where id = ${member.id}`,
    );
    // an admin watches the target list: the number's count moves live and flashes (§4)
    const watcher = await newPage(browser);
    await signInAs(watcher.context, server, admin);
    await watcher.page.goto(`${server.url}/phonenumber`);
    const target = watcher.page.locator('tr', { hasText: '62899777000' }).getByTestId('pn-success');
    await eventually(() => target.textContent()).toBe('0');
    await liveReady(watcher.page);

    const { context, page } = await newPage(browser);
    await signInAs(context, server, member);
    await page.goto(`${server.url}/whatsapp`);
    await liveReady(page);
    await eventually(() => stateOf(page, pairedAccount.id)).toBe('Connected');
    const r = row(page, pairedAccount.id);
    await r.getByRole('button', { name: 'Start Blast' }).click();
    await eventually(() => r.getByTestId('wa-success').textContent()).toBe('1');
    await eventually(() => target.textContent()).toBe('1');
    expect(await target.getAttribute('class')).toContain('bg-green-100');
    await watcher.context.close();
    await eventually(() => stateOf(page, pairedAccount.id)).toMatch(/^Waiting \([123]s\)\.\.\.$/);
    await r.getByRole('button', { name: 'Stop Blast' }).click();
    // §4: a blast in progress asks first
    await page.getByRole('dialog', { name: 'Sedang mengirim' }).getByRole('button', { name: 'Stop Blast!' }).click();
    await eventually(() => r.getByRole('button', { name: 'Start Blast' }).count()).toBe(1);
    expect(await stateOf(page, pairedAccount.id)).toBe('Connected');
    // nothing more is sent once stopped; the income the account earned shows on its row (3.5 s: a
    // window past the 3 s interval, when the next message would have left)
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(await r.getByTestId('wa-success').textContent()).toBe('1');
    const [log] = await rows<{ n: number }>(
      server.db,
      sql`select count(*)::int as n from message_logs where status in ('sent', 'delivered', 'read') and whatsapp_id = ${pairedAccount.id}`,
    );
    expect(log?.n).toBe(1);
    await context.close();
  });

  it("shows a member only their own accounts; admin sees every member's on /member/whatsapp", async () => {
    await server.db.execute(sql`insert into whatsapp_accounts (clientid, user_id, phonenumber, pushname, state)
      values (${`id-${Date.now()}-42`}, ${other.id}, '6289900000001', 'Other Phone', 'connected')`);

    const { context, page } = await newPage(browser);
    await signInAs(context, server, member);
    await page.goto(`${server.url}/whatsapp`);
    await eventually(() => page.locator('tbody tr[data-row]').count()).toBe(2);
    const body = await page.locator('tbody').textContent();
    expect(body).toContain(qrAccount.phonenumber);
    expect(body).toContain('6281355500011');
    expect(body).not.toContain('6289900000001');

    // the status filter goes in ?s= and lists only that state
    await page.getByLabel('Filter Status').selectOption('disconnected');
    await page.waitForURL(/[?&]s=disconnected/);
    await eventually(() => page.locator('tbody tr[data-row]').count()).toBe(1);
    expect(await row(page, qrAccount.id).count()).toBe(1);
    await context.close();

    const otherSide = await newPage(browser);
    await signInAs(otherSide.context, server, other);
    await otherSide.page.goto(`${server.url}/whatsapp`);
    await eventually(() => otherSide.page.locator('tbody').textContent()).toContain('6289900000001');
    expect(await otherSide.page.locator('tbody tr[data-row]').count()).toBe(1);
    await otherSide.context.close();

    const adminSide = await newPage(browser);
    await signInAs(adminSide.context, server, admin);
    await adminSide.page.goto(`${server.url}/member/whatsapp`);
    await eventually(() => adminSide.page.locator('tbody tr[data-row]').count()).toBe(3);
    expect(await adminSide.page.locator('thead').textContent()).toContain('Sending');
    expect(await adminSide.page.getByRole('button', { name: 'Start Blast' }).count()).toBe(0);
    await adminSide.page.goto(`${server.url}/member/whatsapp?id=${other.id}`);
    await eventually(() => adminSide.page.locator('tbody').textContent()).toContain('6289900000001');
    expect(await adminSide.page.locator('tbody tr[data-row]').count()).toBe(1);
    await adminSide.context.close();
  });
});

describe('the blaster form', () => {
  it("an admin sends from any member's connected account on /blaster", async () => {
    const { context, page } = await newPage(browser);
    await signInAs(context, server, admin);
    await page.goto(`${server.url}/blaster`);
    await eventually(() => page.getByRole('heading', { name: 'Blaster' }).count()).toBeGreaterThan(0);
    const form = page.getByTestId('blaster-form');
    const sender = form.getByLabel('Choose Sender');
    await eventually(async () => (await sender.locator('option').allTextContents()).join('|'), 5000).toContain(
      pairedAccount.phonenumber,
    );
    expect((await sender.locator('option').allTextContents()).join('|')).not.toContain(qrAccount.phonenumber);
    await sender.selectOption(pairedAccount.phonenumber);
    await form.getByLabel('Message', { exact: true }).fill('Halo dari admin');
    await form.getByLabel('Tambah nomor penerima').fill('6281200000009');
    await form.getByRole('button', { name: 'Tambah' }).click();
    await form.getByRole('button', { name: 'Kirim' }).click();
    await page.getByRole('dialog', { name: 'Terkirim!' }).waitFor();
    await context.close();
  });

  it("a member picks receivers from the active target numbers (search, 'All'), never a number of their own", async () => {
    await server.db.execute(
      sql`insert into phone_numbers (number, name, status) values ('62899777999', 'Nonaktif', 'nonactive')`,
    );
    const lastSend = async () => {
      const [r] = await rows<{ receivers: string[]; message: string }>(
        server.db,
        sql`select receivers, message from whatsapp_sends where whatsapp_id = ${pairedAccount.id} order by created_at desc, id desc limit 1`,
      );
      return r;
    };
    const { context, page } = await newPage(browser);
    await signInAs(context, server, member);
    await page.goto(`${server.url}/whatsapp/create`);
    const form = page.getByTestId('blaster-form');
    const sender = form.getByLabel('Choose Sender');
    // only connected accounts are senders (loaded after the selector's 1 s delay): the paired one,
    // not the disconnected QR one
    await eventually(() => sender.locator('option').count(), 5000).toBe(2);
    const options = await sender.locator('option').allTextContents();
    expect(options.some((o) => o.includes(pairedAccount.phonenumber))).toBe(true);
    expect(options.some((o) => o.includes(qrAccount.phonenumber))).toBe(false);

    // the active target numbers are offered; a member cannot type numbers of their own
    const list = form.getByTestId('receivers');
    await eventually(() => list.textContent(), 5000).toContain('Target 4');
    for (let i = 0; i < 5; i++) expect(await list.textContent()).toContain(`6289977700${i}`);
    expect(await list.textContent()).not.toContain('62899777999');
    expect(await form.getByLabel('Tambah nomor penerima').count()).toBe(0);

    await form.getByRole('button', { name: 'Kirim' }).click();
    await eventually(() => form.getByText('Sender is required.').count()).toBe(1);
    expect(await form.getByText('Message is required.').count()).toBe(1);
    expect(await form.getByText('Receivers are required.').count()).toBe(1);

    await sender.selectOption(pairedAccount.phonenumber);
    await form.getByLabel('Message', { exact: true }).fill('Halo dari WA Blaster');
    await form.getByLabel('Cari nomor penerima').fill('Target 3');
    await eventually(() => list.getByRole('checkbox').count()).toBe(2);
    await list.getByRole('checkbox', { name: /62899777003/ }).check();
    await eventually(() => form.getByText('1 nomor dipilih').count()).toBe(1);
    await form.getByRole('button', { name: 'Kirim' }).click();
    const sent = page.getByRole('dialog', { name: 'Terkirim!' });
    await sent.waitFor();
    expect(await sent.textContent()).toContain('Pesan blaster berhasil dikirim ke target.');
    await sent.getByRole('button', { name: 'Cool' }).click();
    await eventually(() => page.getByRole('dialog').count()).toBe(0);
    expect(await lastSend()).toEqual({ receivers: ['62899777003'], message: 'Halo dari WA Blaster' });

    // 'All': the server takes the active numbers least recently sent, up to a member's 100
    await form.getByLabel('Cari nomor penerima').fill('');
    await eventually(() => list.getByRole('checkbox').count()).toBe(6);
    await form.getByLabel('All', { exact: true }).check();
    await eventually(() => form.getByText('Semua nomor aktif (maks. 100)').count()).toBe(1);
    await form.getByRole('button', { name: 'Kirim' }).click();
    await page.getByRole('dialog', { name: 'Terkirim!' }).waitFor();
    await page.getByRole('dialog', { name: 'Terkirim!' }).getByRole('button', { name: 'Cool' }).click();
    expect((await lastSend())?.receivers.sort()).toEqual([0, 1, 2, 3, 4].map((i) => `6289977700${i}`));

    server.sim().control(pairedAccount.clientid).disconnect();
    await eventually(() => accountByClientId(pairedAccount.clientid).then((a) => a?.state)).toBe('disconnected');
    await form.getByRole('button', { name: 'Kirim' }).click();
    const failed = page.getByRole('dialog', { name: 'Gagal!' });
    await failed.waitFor();
    expect(await failed.textContent()).toContain(`${pairedAccount.phonenumber} is disconnected`);
    await context.close();
  });
});
