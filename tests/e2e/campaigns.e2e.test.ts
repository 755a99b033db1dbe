// Campaigns (issue 22) as their users see them: a client signs in to their campaigns, makes a
// draft, imports its targets (an opted-out number and a duplicate skipped), adds a variant that
// waits for approval and submits it, without an approve button or the operator's menus; an admin
// approves the variant and the campaign, prices it and records a top-up; the client's page then
// follows the campaign's figures by itself (seeded sends and a reply), and downloads its leads and
// report. Another client's campaign is not found, and the page fits a phone and a desktop.
import {
  CAMPAIGN_LEAD_COLUMNS,
  CAMPAIGN_TARGET_TEXTS,
  CAMPAIGN_TEMPLATE_TEXTS,
  CAMPAIGN_TEXTS,
  CAMPAIGN_TOPUP_TEXTS,
  CAMPAIGN_WEBHOOK_EVENTS,
} from '@wa/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { useUsers } from '../support/factories';
import { useTestServer } from '../support/server';
import { CampaignPage } from './pages/campaign.page';
import { ShellPage } from './pages/shell.page';
import { SignInPage } from './pages/sign-in.page';
import { newPage, openAs, signInAs, useBrowser } from './support/browser';
import { insideWidth } from './support/layout';

const server = useTestServer();
const browser = useBrowser();
const users = useUsers(() => server.db, {
  admin: 'admin',
  member: 'member',
  client: { role: 'client', firstname: 'Andi', lastname: 'Klien' },
  other: { role: 'client', firstname: 'Lain' },
});

const NAME = 'Promo Desember';
/** the campaign the client makes; the later steps open it */
let id = 0;
/** the page's figures follow the campaign every 5 s: wait a little longer than that */
const LIVE = { timeout: 15_000 };

/** A CSV's lines as records by its header. */
function records(text: string): Record<string, string>[] {
  const [head, ...lines] = text.trim().split('\n');
  const cols = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
}

describe('campaigns', () => {
  it('a client signs in to Campaigns, makes a draft, imports targets, adds a variant and submits it', async () => {
    // a number opted out in the pool: never a campaign's target
    await server.db.execute(
      sql`insert into phone_numbers (number, name, status) values ('6281300000009', 'Pool', 'optout')`,
    );
    const { context, page } = await newPage(browser);
    const signIn = new SignInPage(page);
    await signIn.open(server.url);
    await signIn.fill(users.client.email, users.client.password);
    await signIn.submit();
    await page.waitForURL(`${server.url}/campaigns`);
    const shell = new ShellPage(page);
    await expect.poll(() => shell.title().textContent()).toBe('Campaigns');
    await expect.poll(() => shell.menuLabels()).toEqual(['Campaigns', 'Profile']);
    await expect.poll(() => page.getByText('Kosong').count()).toBe(1);

    const campaigns = new CampaignPage(page);
    await page.getByRole('button', { name: 'New campaign' }).click();
    const form = campaigns.newCampaignForm();
    // a client names no client, and sets neither price nor priority
    expect(await form.locator('input[name=client_id]').count()).toBe(0);
    expect(await form.locator('input[name=price_per_delivered]').count()).toBe(0);
    await form.getByRole('button', { name: 'Create draft' }).click();
    await expect.poll(() => form.getByText('Name is required.').count()).toBe(1);
    await form.locator('input[name=name]').fill(NAME);
    await form.locator('input[name=budget_messages]').fill('100');
    await form.locator('input[name=budget_amount]').fill('50000');
    await form.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL(/\/campaigns\/\d+$/);
    id = Number(new URL(page.url()).pathname.split('/').pop());
    await expect.poll(() => campaigns.name().textContent()).toBe(NAME);
    expect(await campaigns.status().textContent()).toBe('Draft');
    expect(await campaigns.moves()).toEqual(['Submit for approval', 'Finish', 'Delete']);
    expect(await campaigns.budget('messages').textContent()).toContain('0 / 100');
    expect(await campaigns.budget('amount').textContent()).toContain('Rp 0 / Rp 50.000');

    // targets: three new numbers, one twice in the file, one opted out in the pool
    const csv = [
      'number,name,status',
      '081300000001,Andi Satu,active',
      '081300000002,Budi Dua,active',
      '081300000003,Citra Tiga,active',
      '081300000001,Andi Lagi,active',
      '081300000009,Sudah Keluar,active',
    ].join('\n');
    await campaigns.importTargets('targets.csv', csv);
    const targets = campaigns.section('Targets');
    await expect.poll(() => targets.getByText('Total 3 nomor, berhasil didaftarkan.').count()).toBe(1);
    const skipped = targets.getByTestId('skipped-row');
    await expect.poll(() => skipped.count()).toBe(2);
    const skippedText = (await skipped.allInnerTexts()).join('\n');
    expect(skippedText).toContain(`6281300000009 — Sudah Keluar (${CAMPAIGN_TARGET_TEXTS.optedOut})`);
    expect(skippedText).toContain('6281300000001 — Andi Lagi (Duplicate in file)');
    const list = await campaigns.download(targets.getByRole('button', { name: 'Download CSV' }));
    expect(list.name).toBe(`campaign_${id}_targets_skipped.csv`);
    expect(records(list.text).map((r) => [r.number, r.reason])).toEqual(
      expect.arrayContaining([
        ['6281300000009', CAMPAIGN_TARGET_TEXTS.optedOut],
        ['6281300000001', 'Duplicate in file'],
      ]),
    );
    await expect.poll(() => campaigns.targetRows().count()).toBe(3);
    expect(await targets.getByTestId('target-total').textContent()).toBe('3 nomor');
    expect((await campaigns.targetRows().allInnerTexts()).join('\n')).not.toContain('6281300000009');

    // a variant: the client's waits for an admin's approval, and the client has no approve button
    await campaigns.addVariant('Halo {name}, promo akhir tahun!', 2);
    await expect
      .poll(() => campaigns.section('Variants').getByText(CAMPAIGN_TEMPLATE_TEXTS.awaitingApproval).count())
      .toBe(1);
    await expect.poll(() => campaigns.variantRows().count()).toBe(1);
    const variant = campaigns.variantRows().first();
    expect(await variant.textContent()).toContain('Halo {name}, promo akhir tahun!');
    expect(await variant.getByText('Awaiting approval').count()).toBe(1);
    expect(await variant.getByRole('textbox', { name: /Weight of variant/ }).inputValue()).toBe('2');
    expect(await campaigns.section('Variants').getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);

    // submitted, it awaits the operator: the client may take it back or finish it, never approve it
    await campaigns.move('Submit for approval');
    await expect.poll(() => campaigns.status().textContent()).toBe('Awaiting approval');
    expect(await campaigns.moves()).toEqual(['Back to draft', 'Finish', 'Delete']);
    expect(await page.getByRole('button', { name: 'Approve campaign' }).count()).toBe(0);
    // the report keeps the operator's money to the operator
    const headers = await campaigns.reportHeaders();
    expect(headers).toEqual(expect.arrayContaining(['Sent', 'Delivered', 'Replied', 'Cost']));
    expect(headers).not.toContain('Fees');
    expect(headers).not.toContain('Margin');
    expect(await shell.menuLabels()).toEqual(['Campaigns', 'Profile']);
    await context.close();
  });

  it('a client is kept from the members, accounts and report screens; their profile holds API keys and webhooks', async () => {
    for (const path of ['/member', '/whatsapp', '/report']) {
      const { context, page } = await openAs(browser, server, users.client, path);
      await page.waitForURL(`${server.url}/not-authorized`);
      await context.close();
    }
    const { context, page } = await openAs(browser, server, users.client, '/profile');
    await expect.poll(() => page.getByRole('heading', { name: 'API Key', exact: true }).count()).toBe(1);
    // a client's webhooks take only their campaigns' events
    const events = page.locator('input[name^="event:"]');
    await expect.poll(() => events.count()).toBe(CAMPAIGN_WEBHOOK_EVENTS.length);
    const names = await events.evaluateAll((els) => els.map((e) => e.getAttribute('name')));
    expect(names).toEqual(CAMPAIGN_WEBHOOK_EVENTS.map((e) => `event:${e}`));
    await context.close();
  });

  it('an admin approves the variant and the campaign, prices it and records a top-up', async () => {
    const { context, page } = await openAs(browser, server, users.admin, '/campaigns');
    const campaigns = new CampaignPage(page);
    const row = campaigns.listRow(NAME);
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('Andi Klien');
    expect(await row.textContent()).toContain('Awaiting approval');
    // a new campaign's client is picked from the client users, by name
    await page.getByRole('button', { name: 'New campaign' }).click();
    const pick = page.getByTestId('new-campaign-form').getByLabel('Client');
    await expect
      .poll(() => pick.locator('option').allTextContents())
      .toEqual(expect.arrayContaining([expect.stringContaining('Andi Klien')]));
    await page.getByRole('button', { name: 'Cancel' }).click();
    await row.getByRole('link', { name: NAME }).click();
    await page.waitForURL(`${server.url}/campaigns/${id}`);
    await expect.poll(() => campaigns.moves()).toEqual(['Back to draft', 'Approve campaign', 'Finish', 'Delete']);
    expect(await campaigns.reportHeaders()).toEqual(expect.arrayContaining(['Fees', 'Margin']));

    const variant = campaigns.variantRows().first();
    await variant.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect.poll(() => variant.getByText('Approved', { exact: true }).count()).toBe(1);
    expect(await variant.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);

    await campaigns.saveTerms({ price_per_delivered: '1000', priority: '5' });
    await expect.poll(() => campaigns.section('Terms').getByText('Terms saved.').count()).toBe(1);
    await expect.poll(() => campaigns.section('Progress').textContent()).toContain('Rp 1.000');

    await campaigns.move('Approve campaign');
    await expect.poll(() => campaigns.status().textContent()).toBe('Active');
    expect(await campaigns.moves()).toEqual(['Pause', 'Finish']);

    await campaigns.recordTopup('250000', 'Transfer BCA');
    await expect.poll(() => campaigns.section('Top-ups').getByText(CAMPAIGN_TOPUP_TEXTS.recorded).count()).toBe(1);
    await expect.poll(() => campaigns.topupRows().count()).toBe(1);
    expect(await campaigns.topupRows().first().textContent()).toContain('Rp 250.000');
    expect(await page.getByTestId('topup-total').textContent()).toBe('Total Rp 250.000');
    // the top-up adds to the rupiah budget
    await expect.poll(() => campaigns.budget('amount').textContent()).toContain('Rp 300.000');
    await context.close();
  });

  it("the client's page follows the figures by itself, and downloads the leads and the report", async () => {
    const { context, page } = await openAs(browser, server, users.client, `/campaigns/${id}`);
    const campaigns = new CampaignPage(page);
    await expect.poll(() => campaigns.status().textContent()).toBe('Active');
    expect(await campaigns.moves()).toEqual(['Pause', 'Finish']);
    expect(await campaigns.stat('sent').textContent()).toBe('0');
    // a client records no top-up, but sees the history
    expect(await page.getByTestId('topup-form').count()).toBe(0);
    expect(await campaigns.topupRows().first().textContent()).toContain('Transfer BCA');

    // what the blasts would have written: two messages delivered (one read), one failed, a reply
    const targets = await rows<{ id: number; number: string }>(
      server.db,
      sql`select id, number from phone_numbers where campaign_id = ${id} order by number`,
    );
    const [variant] = await rows<{ id: number }>(
      server.db,
      sql`select id from message_templates where campaign_id = ${id}`,
    );
    const [t1, t2, t3] = targets;
    await server.db.execute(sql`insert into message_logs
        (user_id, phone_number_id, campaign_id, variant_id, target, status, fee) values
        (${users.member.id}, ${t1.id}, ${id}, ${variant.id}, ${t1.number}, 'read', 300),
        (${users.member.id}, ${t2.id}, ${id}, ${variant.id}, ${t2.number}, 'delivered', 300),
        (${users.member.id}, ${t3.id}, ${id}, ${variant.id}, ${t3.number}, 'failed', 0)`);
    await server.db.execute(sql`insert into incoming_messages (phone_number_id, sender, text, campaign_id)
        values (${t1.id}, ${t1.number}, 'Mau info dong', ${id})`);
    await server.db.execute(sql`update campaigns
        set sent = 2, delivered = 2, read = 1, failed = 1, replied = 1, spent = 2000 where id = ${id}`);

    // no reload: the page asks again by itself
    await expect.poll(() => campaigns.stat('sent').textContent(), LIVE).toBe('2');
    expect(await campaigns.stat('replied').textContent()).toBe('1');
    expect(await campaigns.stat('spent').textContent()).toBe('Rp 2.000');
    await expect.poll(() => campaigns.reportTotal('sent').textContent(), LIVE).toBe('2');
    expect(await campaigns.reportTotal('delivered').textContent()).toBe('2');
    expect(await campaigns.reportTotal('failed').textContent()).toBe('1');
    expect(await campaigns.reportTotal('replied').textContent()).toBe('1');
    expect(await campaigns.reportTotal('cost').textContent()).toBe('Rp 2.000');
    expect(await campaigns.reportTotal('fees').count()).toBe(0);
    expect(await campaigns.budget('messages').textContent()).toContain('2 / 100');
    // the chart per day: sent, delivered and replied of the one day
    await expect.poll(() => page.getByTestId('campaign-chart').getAttribute('data-series'), LIVE).toBe('3');
    await expect.poll(() => page.getByTestId('campaign-chart').locator('canvas').count(), LIVE).toBe(1);
    await expect.poll(() => campaigns.replyRows().count(), LIVE).toBe(1);
    const reply = (await campaigns.replyRows().first().textContent()) ?? '';
    for (const part of ['Mau info dong', t1.number, 'Andi Satu', `#${variant.id}`]) expect(reply).toContain(part);

    const leads = await campaigns.download(
      campaigns.section('Replies').getByRole('button', { name: 'Download leads' }),
    );
    expect(leads.name).toBe(`campaign-${id}-leads.csv`);
    expect(leads.text.split('\n')[0]).toBe(CAMPAIGN_LEAD_COLUMNS.join(','));
    expect(records(leads.text)).toEqual([
      expect.objectContaining({ number: t1.number, name: 'Andi Satu', replies: '1', first_reply: 'Mau info dong' }),
    ]);

    const report = await campaigns.download(campaigns.section('Report').getByRole('button', { name: 'Export CSV' }));
    expect(report.name).toBe(`campaign-${id}-report.csv`);
    const [day, total] = records(report.text);
    expect(day).toMatchObject({ variant_id: String(variant.id), sent: '2', delivered: '2', failed: '1', cost: '2000' });
    expect(total).toMatchObject({ day: 'total', sent: '2', replied: '1', cost: '2000' });
    // the operator's columns stay the operator's in the client's download too
    expect(day).not.toHaveProperty('fees');
    expect(day).not.toHaveProperty('margin');
    await context.close();
  });

  it("another client cannot open the first client's campaign", async () => {
    const { context, page } = await openAs(browser, server, users.other, `/campaigns/${id}`);
    const campaigns = new CampaignPage(page);
    await expect.poll(() => campaigns.notFound().textContent()).toContain(CAMPAIGN_TEXTS.notFound);
    expect(await campaigns.name().count()).toBe(0);
    expect(await page.getByText(NAME).count()).toBe(0);
    await page.goto(`${server.url}/campaigns`);
    await expect.poll(() => page.getByText('Kosong').count()).toBe(1);
    await context.close();
  });

  it('fits a phone (375 px) and a desktop (1280 px) without clipping', async () => {
    for (const width of [375, 1280]) {
      const { context, page } = await newPage(browser, width, 800);
      await signInAs(context, server, users.client);
      await page.goto(`${server.url}/campaigns/${id}`);
      const campaigns = new CampaignPage(page);
      await expect.poll(() => campaigns.stat('sent').textContent()).toBe('2');
      await expect.poll(() => campaigns.replyRows().count()).toBe(1);
      // nothing makes the page wider than the screen
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const shown = [
        campaigns.name(),
        ...(await page.getByTestId('campaign-moves').getByRole('button').all()),
        campaigns.budget('messages'),
        campaigns.budget('amount'),
        ...(await page.getByTestId('campaign-stats').locator('[data-testid^=stat-]').all()),
        campaigns.section('Report').getByRole('button', { name: 'Export CSV' }),
        // active: the client reads the terms (pausing opens the form)
        page.getByTestId('campaign-terms'),
        campaigns.topupRows().first(),
        page.getByTestId('variant-form').getByRole('button', { name: 'Add variant' }),
        campaigns.section('Targets').getByRole('button', { name: 'Upload File' }),
        campaigns.targetRows().first(),
        campaigns.replyRows().first(),
        campaigns.section('Replies').getByRole('button', { name: 'Download leads' }),
      ];
      for (const element of shown) await insideWidth(element, width);
      await page.goto(`${server.url}/campaigns`);
      const row = campaigns.listRow(NAME);
      await expect.poll(() => row.count()).toBe(1);
      await insideWidth(row.getByRole('link', { name: NAME }), width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await context.close();
    }
  });
});
