import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import type { SimDelivery } from '../../workers/src/drivers/sim';
import { poolPick, releaseTargets, settleAbandoned } from '../../workers/src/engine/blast.repo';
import { claimFromCampaigns } from '../../workers/src/engine/campaign-claims.repo';
import { apiAs } from '../support/api';
import { useUsers } from '../support/factories';
import { connectAccount, type SavedAccount, setSimEnv, useWaHarness, waHelpers } from '../support/wa-engine';
import { until } from '../support/wait';

/**
 * Blasts drawing from campaigns (issue 22) on the simulator: the active campaigns' targets go before
 * the default pool's, by priority, equals taking turns; each target is messaged once, only from its
 * own campaign, with its campaign's approved variants by weight; a budget of messages or rupiah stops
 * the campaign exactly, and its end stops it; the members are paid as for any message; the message
 * log names the campaign and the variant, and the campaign's figures follow sends and receipts.
 * The campaign routes: campaigns.test.ts, campaign-targets.test.ts, campaign-templates.test.ts.
 */

setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 0, sendFailRate: 0 });
process.env.SIM_DELIVER_RATE = '1';
process.env.SIM_READ_RATE = '0';
process.env.SIM_ACK_DELAY_MS = '20';

// campaign.progress at most every 300 ms here (a minute in production)
const PROGRESS_MS = 300;
const h = useWaHarness({ blastSecondMs: 1, campaignTickMs: 50, campaignProgressMs: PROGRESS_MS });
const { wa, sim } = waHelpers(h);
const users = useUsers(() => h.database.db, {
  admin: 'admin',
  clientA: 'client',
  clientB: 'client',
  member: 'member',
  other: 'member',
});
const deliveries: SimDelivery[] = [];
const q = <T>(query: ReturnType<typeof sql>) => rows<T>(h.database.db, query);
const FEE = 120;

let mine: SavedAccount;
let theirs: SavedAccount;

beforeAll(async () => {
  sim().onDelivered((d) => deliveries.push(d));
  const db = h.database.db;
  await db.execute(sql`insert into settings (id, interval_min, interval_max, price, bank_names, colors, referral_percent)
    values (1, 0, 0, ${FEE}, 'BCA', '#000000', 0)
    on conflict (id) do update set interval_min = 0, interval_max = 0, price = ${FEE}, referral_percent = 0`);
  await db.execute(
    sql`insert into message_templates (text, text_wa, status) values ('<p>Pool</p>', 'Pool {name}', 'active')`,
  );
  // paced (0–1 "seconds" of 1 ms): one claim per message, so both accounts find targets when they start
  for (const u of [users.member, users.other]) {
    await db.execute(sql`update users set blast_interval_min = 0, blast_interval_max = 1 where id = ${u.id}`);
  }
  mine = (await connectAccount(h, users.member)).account;
  theirs = (await connectAccount(h, users.other)).account;
});

beforeEach(async () => {
  deliveries.length = 0;
  // every test starts with no campaign running and no target left anywhere
  await h.database.db.execute(
    sql`update campaigns set status = 'finished', stop_reason = 'manual' where status <> 'finished'`,
  );
  await h.database.db.execute(sql`update phone_numbers set last_sent = coalesce(last_sent, now()), in_use = 0`);
});

let seq = 0;

/** An active campaign of `client` with `targets` numbers and its variants (approved unless said). */
async function campaign(opts: {
  client: { id: number };
  tag: string;
  targets: string[];
  variants: Array<{ text: string; weight?: number; approved?: boolean; status?: string }>;
  priority?: number;
  budgetMessages?: number | null;
  budgetAmount?: number | null;
  price?: number;
  startAt?: string | null;
  endAt?: string | null;
  window?: [string, string];
  status?: string;
}): Promise<{ id: number; variants: number[] }> {
  seq += 1;
  const [c] = await q<{ id: number }>(
    sql`insert into campaigns (name, client_id, status, priority, budget_messages, budget_amount, price_per_delivered,
                               start_at, end_at, window_start, window_end)
        values (${`${opts.tag} ${seq}`}, ${opts.client.id}, ${opts.status ?? 'active'}, ${opts.priority ?? 0},
                ${opts.budgetMessages ?? null}, ${opts.budgetAmount ?? null}, ${opts.price ?? 0},
                ${opts.startAt ?? null}, ${opts.endAt ?? null}, ${opts.window?.[0] ?? null}, ${opts.window?.[1] ?? null})
        returning id`,
  );
  const variants: number[] = [];
  for (const v of opts.variants) {
    const [t] = await q<{ id: number }>(
      sql`insert into message_templates (campaign_id, text, text_wa, status, weight, approved_at)
          values (${c.id}, ${v.text}, ${v.text}, ${v.status ?? 'active'}, ${v.weight ?? 1},
                  ${v.approved === false ? null : new Date().toISOString()})
          returning id`,
    );
    variants.push(t.id);
  }
  // one statement for all of them, in the order given (ids follow it)
  await h.database.db.execute(
    sql`insert into phone_numbers (campaign_id, number, name)
        select ${c.id}, t.number, ${`${opts.tag}-`} || (t.i - 1)
        from unnest(${`{${opts.targets.join(',')}}`}::text[]) with ordinality as t(number, i) order by t.i`,
  );
  return { id: c.id, variants };
}

const numbers = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `628${prefix}${String(i).padStart(5, '0')}`);

const start = (acc: SavedAccount, u: { id: number }) =>
  wa(u as never).post('/start-blasting', {
    whatsappClientId: acc.clientid,
    socketClientId: `client-${u.id}`,
    loop: true,
  });

const idle = async (acc: SavedAccount) => {
  const status = async () =>
    (await q<{ status: string }>(sql`select status from whatsapp_accounts where id = ${acc.id}`))[0]?.status;
  await until(async () => (await status()) === 'idle', `${acc.clientid} idle`, 60_000);
};

const campaignRow = async (id: number) =>
  (
    await q<{
      status: string;
      stop_reason: string | null;
      sent: number;
      failed: number;
      delivered: number;
      spent: number;
      reserved: number;
      unknown: number;
      replied: number;
      optout: number;
    }>(
      sql`select status, stop_reason, sent, failed, delivered, spent::int as spent, reserved, unknown, replied, optout
          from campaigns where id = ${id}`,
    )
  )[0];

describe('blasts drawing from campaigns', () => {
  it("runs two clients' campaigns at once: each target once, only from its own campaign, then the pool", async () => {
    // 10 numbers are targets of both campaigns (two advertisers may want the same person)
    const shared = numbers('7100', 10);
    const a = await campaign({
      client: users.clientA,
      tag: 'A',
      targets: [...shared, ...numbers('7101', 30)],
      variants: [{ text: 'Promo A {name}' }],
    });
    const b = await campaign({
      client: users.clientB,
      tag: 'B',
      targets: [...shared, ...numbers('7102', 30)],
      variants: [{ text: 'Promo B {name}' }],
    });
    const pool = numbers('7103', 5);
    for (const n of pool)
      await h.database.db.execute(sql`insert into phone_numbers (number, name) values (${n}, 'Pool')`);

    expect((await start(mine, users.member)).status).toBe(200);
    expect((await start(theirs, users.other)).status).toBe(200);
    await idle(mine);
    await idle(theirs);

    // each campaign's targets got its own text, once each; the shared numbers twice, once per campaign
    const byText = (prefix: string) =>
      deliveries
        .filter((d) => d.text.startsWith(prefix))
        .map((d) => d.to)
        .sort();
    expect(byText('Promo A')).toEqual([...shared, ...numbers('7101', 30)].sort());
    expect(byText('Promo B')).toEqual([...shared, ...numbers('7102', 30)].sort());
    expect(byText('Pool')).toEqual(pool.sort());
    expect(deliveries).toHaveLength(85);
    // a campaign's message is named for its target in that campaign (its own name column)
    const firstA = deliveries.find((d) => d.to === shared[0] && d.text.startsWith('Promo A'));
    expect(firstA?.text).toBe('Promo A A-0');

    // the pool went last: every campaign message left before the first pool message
    const firstPool = deliveries.findIndex((d) => d.text.startsWith('Pool'));
    expect(deliveries.slice(firstPool).every((d) => d.text.startsWith('Pool'))).toBe(true);

    // the log names campaign and variant; the members were paid their fee for every message
    const logs = await q<{ campaign_id: number | null; variant_id: number | null; n: number; fee: number }>(
      sql`select campaign_id, variant_id, count(*)::int as n, sum(fee)::int as fee from message_logs
          where target like '6287100%' or target like '6287101%' or target like '6287102%' or target like '6287103%'
          group by campaign_id, variant_id order by campaign_id nulls last`,
    );
    expect(logs).toEqual([
      { campaign_id: a.id, variant_id: a.variants[0], n: 40, fee: 40 * FEE },
      { campaign_id: b.id, variant_id: b.variants[0], n: 40, fee: 40 * FEE },
      { campaign_id: null, variant_id: null, n: 5, fee: 5 * FEE },
    ]);

    // the campaigns count their messages and finish by themselves once every target is messaged
    await until(
      async () => (await campaignRow(a.id))?.status === 'finished' && (await campaignRow(b.id))?.status === 'finished',
    );
    expect(await campaignRow(a.id)).toMatchObject({ stop_reason: 'completed', sent: 40, failed: 0, reserved: 40 });
    expect(await campaignRow(b.id)).toMatchObject({ stop_reason: 'completed', sent: 40, failed: 0, reserved: 40 });
    // their receipts: delivered and what the advertiser owes (price 0 here)
    await until(async () => (await campaignRow(a.id))?.delivered === 40);
  });

  it('takes the higher priority first, and equals take turns', async () => {
    const low = await campaign({
      client: users.clientA,
      tag: 'L',
      targets: numbers('7200', 6),
      variants: [{ text: 'Low' }],
    });
    const high = await campaign({
      client: users.clientB,
      tag: 'H',
      targets: numbers('7201', 6),
      variants: [{ text: 'High' }],
      priority: 5,
    });
    const even = await campaign({
      client: users.clientB,
      tag: 'E',
      targets: numbers('7202', 6),
      variants: [{ text: 'Even' }],
    });
    // paced: one claim per message, so the turns show message by message
    expect((await start(mine, users.member)).status).toBe(200);
    await idle(mine);
    const order = deliveries.map((d) => d.text.split(' ')[0]);
    expect(order.slice(0, 6)).toEqual(Array(6).fill('High'));
    // Low and Even share priority 0: they alternate
    const rest = order.slice(6);
    expect(rest).toHaveLength(12);
    for (let i = 0; i + 1 < rest.length; i += 2)
      expect(new Set(rest.slice(i, i + 2))).toEqual(new Set(['Low', 'Even']));
    expect(low.id).not.toBe(even.id);
    expect(high.id).toBeGreaterThan(0);
  });

  it('splits a campaign between its approved variants by weight (±10% over 1,000 messages)', async () => {
    const c = await campaign({
      client: users.clientA,
      tag: 'W',
      targets: numbers('7300', 1000),
      variants: [
        { text: 'Heavy {name}', weight: 3 },
        { text: 'Light {name}', weight: 1 },
        // a client's variant no admin approved, and a paused one: never sent
        { text: 'Unapproved {name}', weight: 5, approved: false },
        { text: 'Paused {name}', weight: 5, status: 'nonactive' },
      ],
    });
    // at full speed (claims fifty at a time), one account
    const pace = (max: number) =>
      h.database.db.execute(sql`update users set blast_interval_max = ${max} where id = ${users.member.id}`);
    await pace(0);
    try {
      expect((await start(mine, users.member)).status).toBe(200);
      await idle(mine);
    } finally {
      await pace(1);
    }
    const count = (prefix: string) => deliveries.filter((d) => d.text.startsWith(prefix)).length;
    expect(deliveries).toHaveLength(1000);
    expect(count('Heavy')).toBeGreaterThanOrEqual(675);
    expect(count('Heavy')).toBeLessThanOrEqual(825);
    expect(count('Light')).toBeGreaterThanOrEqual(225);
    expect(count('Light')).toBeLessThanOrEqual(275);
    expect(count('Unapproved') + count('Paused')).toBe(0);
    const byVariant = await q<{ variant_id: number; n: number }>(
      sql`select variant_id, count(*)::int as n from message_logs where campaign_id = ${c.id} group by variant_id order by variant_id`,
    );
    expect(byVariant).toEqual([
      { variant_id: c.variants[0], n: count('Heavy') },
      { variant_id: c.variants[1], n: count('Light') },
    ]);
  });

  it('stops a campaign exactly at its budget of messages, and at what its rupiah buy', async () => {
    const messages = await campaign({
      client: users.clientA,
      tag: 'M',
      targets: numbers('7400', 60),
      variants: [{ text: 'Budget M' }],
      budgetMessages: 25,
    });
    // Rp 1,000 at Rp 90 per delivered message buys 11 messages (never more than the budget)
    const rupiah = await campaign({
      client: users.clientB,
      tag: 'R',
      targets: numbers('7401', 60),
      variants: [{ text: 'Budget R' }],
      budgetAmount: 1000,
      price: 90,
    });
    expect((await start(mine, users.member)).status).toBe(200);
    expect((await start(theirs, users.other)).status).toBe(200);
    await idle(mine);
    await idle(theirs);
    expect(deliveries.filter((d) => d.text === 'Budget M')).toHaveLength(25);
    expect(deliveries.filter((d) => d.text === 'Budget R')).toHaveLength(11);
    await until(async () => (await campaignRow(messages.id))?.status === 'finished');
    await until(async () => (await campaignRow(rupiah.id))?.status === 'finished');
    expect(await campaignRow(messages.id)).toMatchObject({ stop_reason: 'budget', sent: 25, reserved: 25 });
    // the advertiser owes the price of each delivered message, within the budget
    await until(async () => (await campaignRow(rupiah.id))?.delivered === 11);
    expect(await campaignRow(rupiah.id)).toMatchObject({ stop_reason: 'budget', sent: 11, spent: 990 });
    // the targets past the budget were never claimed: they stay unsent
    const [left] = await q<{ n: number }>(
      sql`select count(*)::int as n from phone_numbers where campaign_id = ${messages.id} and last_sent is null and in_use = 0`,
    );
    expect(left.n).toBe(35);
  });

  it('sends nothing of a campaign that has ended, has not started, is outside its hours, or is not active', async () => {
    const ended = await campaign({
      client: users.clientA,
      tag: 'X',
      targets: numbers('7500', 3),
      variants: [{ text: 'Ended' }],
      endAt: new Date(Date.now() - 60_000).toISOString(),
    });
    const later = await campaign({
      client: users.clientA,
      tag: 'Y',
      targets: numbers('7501', 3),
      variants: [{ text: 'Later' }],
      startAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    // a window of one minute, twelve hours from now
    const at = new Date(Date.now() + 12 * 3_600_000);
    const hhmm = (d: Date) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Asia/Jakarta',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(d);
    const closed = await campaign({
      client: users.clientB,
      tag: 'Z',
      targets: numbers('7502', 3),
      variants: [{ text: 'Closed' }],
      window: [hhmm(at), hhmm(new Date(at.getTime() + 60_000))],
    });
    const paused = await campaign({
      client: users.clientB,
      tag: 'P',
      targets: numbers('7503', 3),
      variants: [{ text: 'Paused' }],
      status: 'paused',
    });
    const pool = numbers('7504', 3);
    for (const n of pool)
      await h.database.db.execute(sql`insert into phone_numbers (number, name) values (${n}, 'Pool')`);
    // the campaign that ended is finished by the supervisor ('ended')
    await until(async () => (await campaignRow(ended.id))?.status === 'finished');
    expect((await campaignRow(ended.id))?.stop_reason).toBe('ended');

    expect((await start(mine, users.member)).status).toBe(200);
    // the pool is sent; then the blast waits for the campaigns that may send later
    await until(() => deliveries.length >= 3);
    expect(deliveries.map((d) => d.text)).toEqual(['Pool Pool', 'Pool Pool', 'Pool Pool']);
    await until(async () => {
      const [r] = await q<{ status: string }>(sql`select status from whatsapp_accounts where id = ${mine.id}`);
      return r?.status === 'sending';
    });
    const stopped = await wa(users.member as never).post('/stop-blasting', {
      whatsappClientId: mine.clientid,
      socketClientId: `client-${users.member.id}`,
      loop: true,
    });
    expect(stopped.status).toBe(200);
    await idle(mine);
    expect(deliveries).toHaveLength(3);
    for (const c of [later, closed, paused]) expect((await campaignRow(c.id))?.sent).toBe(0);
  });

  it('records a reply and an opt-out as the campaign whose message they answer', async () => {
    const [both, onlyA, stranger] = ['62871700001', '62871700002', '62871700003'];
    // B goes first (priority), so the last message to `both` from this account is A's
    const b = await campaign({
      client: users.clientB,
      tag: 'RB',
      targets: [both],
      variants: [{ text: 'Reply B' }],
      priority: 2,
    });
    const a = await campaign({
      client: users.clientA,
      tag: 'RA',
      targets: [both, onlyA],
      variants: [{ text: 'Reply A' }],
    });
    await h.database.db.execute(sql`insert into phone_numbers (number, name) values (${onlyA}, 'Pool too')`);
    expect((await start(mine, users.member)).status).toBe(200);
    await idle(mine);
    expect(deliveries.map((d) => d.text)).toEqual(['Reply B', 'Reply A', 'Reply A', 'Pool Pool too']);

    const control = sim().control(mine.clientid);
    control.reply({ from: both, text: 'Mau dong, berapa harganya?' });
    control.reply({ from: both, text: 'Halo?' });
    control.reply({ from: onlyA, text: 'STOP' });
    control.reply({ from: stranger, text: 'Siapa ini?' });
    await until(
      async () => (await q(sql`select id from incoming_messages where whatsapp_id = ${mine.id}`)).length === 4,
      'four incoming messages',
    );
    const incoming = await q<{ sender: string; campaign_id: number | null; optout: boolean }>(
      // (the account handles its incoming messages at once: their order in the table is not the sending order)
      sql`select sender, campaign_id, optout from incoming_messages where whatsapp_id = ${mine.id}
          order by sender, optout`,
    );
    expect(incoming).toEqual([
      { sender: both, campaign_id: a.id, optout: false },
      { sender: both, campaign_id: a.id, optout: false },
      { sender: onlyA, campaign_id: a.id, optout: true },
      { sender: stranger, campaign_id: null, optout: false },
    ]);
    // replied counts targets that replied (both twice: once); the opt-out is A's and everyone's
    const figures = await q<{ id: number; replied: number; optout: number }>(
      sql`select id, replied, optout from campaigns where id in (${a.id}, ${b.id}) order by id`,
    );
    expect(figures).toEqual([
      { id: b.id, replied: 0, optout: 0 },
      { id: a.id, replied: 2, optout: 1 },
    ]);
    const statuses = await q<{ campaign_id: number | null; status: string }>(
      sql`select campaign_id, status from phone_numbers where number = ${onlyA} order by campaign_id nulls first`,
    );
    expect(statuses).toEqual([
      { campaign_id: null, status: 'optout' },
      { campaign_id: a.id, status: 'optout' },
    ]);
  });

  it("tells each client's webhooks only their own campaigns' events, never a member's account", async () => {
    const endpoint = async (owner: { id: number }, events: string[]) =>
      (
        await q<{ id: number }>(
          sql`insert into webhook_endpoints (user_id, url, events, secret)
              values (${owner.id}, 'https://93.184.215.14/hook', ${`{${events.join(',')}}`}::text[], 's') returning id`,
        )
      )[0]?.id as number;
    const all = ['campaign.started', 'campaign.progress', 'campaign.finished', 'message.replied'];
    const hookA = await endpoint(users.clientA, all);
    const hookB = await endpoint(users.clientB, all);
    const hookAdmin = await endpoint(users.admin, ['campaign.finished']);
    h.engine.webhooks.invalidate();
    const a = await campaign({
      client: users.clientA,
      tag: 'HA',
      targets: numbers('7800', 3),
      variants: [{ text: 'Hook A' }],
    });
    const b = await campaign({
      client: users.clientB,
      tag: 'HB',
      targets: numbers('7801', 2),
      variants: [{ text: 'Hook B' }],
    });
    expect((await start(mine, users.member)).status).toBe(200);
    await idle(mine);
    sim()
      .control(mine.clientid)
      .reply({ from: numbers('7800', 1)[0] as string, text: 'Tertarik' });
    await until(async () => (await campaignRow(a.id))?.status === 'finished', 'campaign A finished');
    await until(async () => (await campaignRow(b.id))?.status === 'finished', 'campaign B finished');
    await h.engine.webhooks.flush();
    const bodies = async (hook: number) =>
      (
        await q<{ event: string; body: string }>(
          sql`select event, body from webhook_deliveries where endpoint_id = ${hook} order by id`,
        )
      ).map((d) => ({ event: d.event, data: JSON.parse(d.body).data as Record<string, unknown> }));
    await until(async () => (await bodies(hookA)).some((d) => d.event === 'message.replied'), 'the reply told');
    const toA = await bodies(hookA);
    const toB = await bodies(hookB);
    expect(toA.every((d) => d.data.campaign_id === a.id && d.data.client_id === users.clientA.id)).toBe(true);
    expect(toB.every((d) => d.data.campaign_id === b.id && d.data.client_id === users.clientB.id)).toBe(true);
    expect(toA.map((d) => d.event)).toEqual(
      expect.arrayContaining(['campaign.started', 'campaign.finished', 'message.replied']),
    );
    expect(toB.map((d) => d.event)).toEqual(expect.arrayContaining(['campaign.started', 'campaign.finished']));
    expect(toB.some((d) => d.event === 'message.replied')).toBe(false);
    expect(toA.find((d) => d.event === 'campaign.finished')?.data).toMatchObject({ reason: 'completed', sent: 3 });
    expect(toA.find((d) => d.event === 'message.replied')?.data).toMatchObject({
      target: numbers('7800', 1)[0],
      text: 'Tertarik',
    });
    // nothing of the member or their account reaches the client
    for (const d of [...toA, ...toB]) {
      for (const key of ['user_id', 'account_id', 'device_id', 'phone']) expect(d.data).not.toHaveProperty(key);
    }
    // the admin's endpoint hears every client's campaigns
    const toAdmin = await bodies(hookAdmin);
    expect(toAdmin.map((d) => d.data.campaign_id).sort()).toEqual([a.id, b.id].sort());
    await h.database.db.execute(sql`delete from webhook_endpoints where id in (${hookA}, ${hookB}, ${hookAdmin})`);
    h.engine.webhooks.invalidate();
  });

  it('reports the campaign per day and variant, lists its replies, exports its leads and records its top-ups', async () => {
    const targets = numbers('7900', 6);
    const c = await campaign({
      client: users.clientA,
      tag: 'Rep',
      targets,
      variants: [
        { text: 'Rep one', weight: 1 },
        { text: 'Rep two', weight: 1 },
      ],
      price: 100,
    });
    expect((await start(mine, users.member)).status).toBe(200);
    await idle(mine);
    await until(async () => (await campaignRow(c.id))?.delivered === 6, 'six delivered');
    const control = sim().control(mine.clientid);
    control.reply({ from: targets[0] as string, text: 'Boleh info lebih lanjut' });
    control.reply({ from: targets[1] as string, text: 'stop' });
    await until(async () => (await campaignRow(c.id))?.optout === 1, 'the opt-out counted');

    const api = (u: { token: string } | null) => apiAs(h, u as never, '/api/admin/campaigns');
    // the operator's report: every figure, fees paid to the members and the margin included
    const report = await api(users.admin).get(`/${c.id}/report`);
    expect(report.status).toBe(200);
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jakarta' }).format(new Date());
    // one row per variant used today (a target's variant is drawn by weight: with six targets, now
    // and then every one draws the same variant)
    const variantsUsed = report.body.rows.map((r: { variant_id: number }) => r.variant_id);
    expect(variantsUsed.length).toBeGreaterThanOrEqual(1);
    expect(variantsUsed.every((v: number) => c.variants.includes(v))).toBe(true);
    expect(new Set(variantsUsed).size).toBe(variantsUsed.length);
    expect(report.body.rows.every((r: { day: string }) => r.day === day)).toBe(true);
    const figures = { sent: 6, delivered: 6, read: 0, failed: 0, unknown: 0, replied: 2, optout: 1, cost: 600 };
    expect(report.body.totals).toEqual({ ...figures, fees: 6 * FEE, margin: 600 - 6 * FEE });
    // each variant's row: its own messages, replies and money
    for (const row of report.body.rows as Array<{ sent: number; cost: number; fees: number; margin: number }>) {
      expect(row.cost).toBe(row.sent * 100);
      expect(row.fees).toBe(row.sent * FEE);
      expect(row.margin).toBe(row.cost - row.fees);
    }
    // the advertiser's: the same figures, without what the members were paid or the operator's margin
    const theirs = await api(users.clientA).get(`/${c.id}/report`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.totals).toEqual({ ...figures, fees: null, margin: null });
    expect(theirs.body.rows).toEqual(
      report.body.rows.map((r: Record<string, unknown>) => ({ ...r, fees: null, margin: null })),
    );
    // the message log names the campaign and variant of each message
    const log = await apiAs(h, users.admin, '/api/admin/messagelog').get(`/list-per-page?search=${targets[0]}`);
    expect(log.status).toBe(200);
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0].campaign_id).toBe(c.id);
    expect(c.variants).toContain(log.body.data[0].variant_id);
    // another client: as if there were no such campaign; a member: not for them
    expect((await api(users.clientB).get(`/${c.id}/report`)).status).toBe(404);
    expect((await api(users.member).get(`/${c.id}/report`)).status).toBe(403);
    expect((await api(null).get(`/${c.id}/report`)).status).toBe(401);

    const csv = await api(users.admin).get(`/${c.id}/report/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe('day,variant_id,sent,delivered,read,failed,unknown,replied,optout,cost,fees,margin');
    // a header, a line per day and variant, the total
    expect(lines).toHaveLength(report.body.rows.length + 2);
    expect(lines.at(-1)).toBe(`total,,6,6,0,0,0,2,1,600,${6 * FEE},${600 - 6 * FEE}`);
    const clientCsv = (await api(users.clientA).get(`/${c.id}/report/export?format=csv`)).text.trim().split('\n');
    expect(clientCsv[0]).toBe('day,variant_id,sent,delivered,read,failed,unknown,replied,optout,cost');
    expect(clientCsv.at(-1)).toBe('total,,6,6,0,0,0,2,1,600');
    const json = await api(users.clientA).get(`/${c.id}/report/export?format=json`);
    expect(JSON.parse(json.text)).toEqual(theirs.body);
    expect((await api(users.clientA).get(`/${c.id}/report/export?format=xml`)).status).toBe(400);

    // the replies: the number, its name and what it said, never the member's account
    const replies = await api(users.clientA).get(`/${c.id}/replies`);
    expect(replies.status).toBe(200);
    expect(replies.body.meta).toMatchObject({ total: 2 });
    // (the two replies were handled at once: newest first is by arrival, not by sending order)
    const seen = (replies.body.data as Array<{ target: string; name: string; text: string; optout: boolean }>)
      .map((r) => [r.target, r.name, r.text, r.optout])
      .sort();
    expect(seen).toEqual([
      [targets[0], 'Rep-0', 'Boleh info lebih lanjut', false],
      [targets[1], 'Rep-1', 'stop', true],
    ]);
    for (const r of replies.body.data) {
      expect(Object.keys(r).sort()).toEqual(['at', 'id', 'name', 'optout', 'target', 'text', 'variant_id']);
    }
    expect((await api(users.clientB).get(`/${c.id}/replies`)).status).toBe(404);

    // leads: who replied and did not opt out
    const leads = await api(users.clientA).get(`/${c.id}/leads/export`);
    expect(leads.status).toBe(200);
    const leadLines = leads.text.trim().split('\n');
    expect(leadLines[0]).toBe('number,name,replies,first_reply,last_reply_at,variant_id');
    expect(leadLines).toHaveLength(2);
    expect(leadLines[1]).toMatch(new RegExp(`^${targets[0]},Rep-0,1,Boleh info lebih lanjut,`));
    expect((await api(users.clientB).get(`/${c.id}/leads/export`)).status).toBe(404);

    // top-ups: admins record them, into the rupiah budget; the client sees the history (a draft's here)
    const d = await campaign({ client: users.clientA, tag: 'Top', targets: [], variants: [], status: 'draft' });
    const refused = await api(users.clientA).post(`/${d.id}/topups`, { amount: 5000 });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('Only an admin or dev records a top-up.');
    for (const [body, msg] of [
      [{ amount: 0 }, 'amount'],
      [{ amount: 'lots' }, 'amount'],
      [{ amount: 10, note: 'x'.repeat(201) }, 'note'],
      [{ amount: 10, note: 'a\u0000b' }, 'note'],
      [{ amount: 10, note: 42 }, 'note'],
      [{}, 'amount'],
    ] as const) {
      const bad = await api(users.admin).post(`/${d.id}/topups`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.msg).toMatch(new RegExp(msg));
    }
    const paid = await api(users.admin).post(`/${d.id}/topups`, { amount: 5000, note: 'Transfer BCA' });
    expect(paid.status).toBe(201);
    expect(paid.body.topup).toMatchObject({ amount: 5000, note: 'Transfer BCA' });
    expect(paid.body.data.budget_amount).toBe(5000);
    const history = await api(users.clientA).get(`/${d.id}/topups`);
    expect(history.body).toMatchObject({ total: 5000, data: [{ amount: 5000, note: 'Transfer BCA' }] });
    expect((await api(users.clientB).get(`/${d.id}/topups`)).status).toBe(404);
    // a campaign that finished by messaging everyone takes no top-up; one its budget finished is paused again
    await until(async () => (await campaignRow(c.id))?.status === 'finished', 'the campaign finished');
    const done = await api(users.admin).post(`/${c.id}/topups`, { amount: 100 });
    expect(done.status).toBe(409);
    expect(done.body.msg).toBe('A campaign finished for another reason than its budget takes no top-up.');
    await h.database.db.execute(sql`update campaigns set stop_reason = 'budget' where id = ${c.id}`);
    const reopened = await api(users.admin).post(`/${c.id}/topups`, { amount: 100 });
    expect(reopened.status).toBe(201);
    expect(reopened.body.data).toMatchObject({ status: 'paused', stop_reason: null, budget_amount: 100 });
  });

  it('tells campaign.progress while the campaign sends, never more often than its period', async () => {
    const [hook] = await q<{ id: number }>(
      sql`insert into webhook_endpoints (user_id, url, events, secret)
          values (${users.clientA.id}, 'https://93.184.215.14/progress', '{campaign.progress}', 's') returning id`,
    );
    h.engine.webhooks.invalidate();
    const c = await campaign({
      client: users.clientA,
      tag: 'Prog',
      targets: numbers('7950', 20),
      variants: [{ text: 'Prog' }],
    });
    // 100 ms between messages: about two seconds of sending
    const pace = (min: number, max: number) =>
      h.database.db.execute(
        sql`update users set blast_interval_min = ${min}, blast_interval_max = ${max} where id = ${users.member.id}`,
      );
    await pace(100, 100);
    try {
      expect((await start(mine, users.member)).status).toBe(200);
      await idle(mine);
    } finally {
      await pace(0, 1);
    }
    await h.engine.webhooks.flush();
    const told = (
      await q<{ body: string }>(sql`select body from webhook_deliveries where endpoint_id = ${hook?.id} order by id`)
    ).map((d) => JSON.parse(d.body) as { created_at: string; data: { campaign_id: number; sent: number } });
    expect(told.length).toBeGreaterThanOrEqual(2);
    expect(told.every((t) => t.data.campaign_id === c.id)).toBe(true);
    for (let i = 1; i < told.length; i++) {
      const gap = Date.parse(told[i]?.created_at ?? '') - Date.parse(told[i - 1]?.created_at ?? '');
      expect(gap).toBeGreaterThanOrEqual(PROGRESS_MS - 50);
      // the figures only grow
      expect(told[i]?.data.sent).toBeGreaterThanOrEqual(told[i - 1]?.data.sent ?? 0);
    }
    await h.database.db.execute(sql`delete from webhook_endpoints where id = ${hook?.id}`);
    h.engine.webhooks.invalidate();
  });

  it("reads the pool's next targets off the unblasted index in order, however many were sent", async () => {
    // thousands of pool numbers sent (the beforeEach marks every earlier one sent too), a few not yet
    await h.database.db.execute(sql`insert into phone_numbers (number, name, last_sent)
      select '62876' || lpad(g::text, 7, '0'), 'Sent', now() from generate_series(1, 5000) g`);
    await h.database.db.execute(sql`insert into phone_numbers (number, name)
      select '62875' || lpad(g::text, 7, '0'), 'Waiting' from generate_series(1, 60) g`);
    // a table this small is cheap to sort whatever the plan: the planner is asked for a plan that
    // needs no sort, which only the index read in its own order gives (an "order by id" takes the
    // primary key instead and filters every sent number on the way: the regression this guards)
    const text = await h.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_sort = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      await tx.execute(sql`set local enable_seqscan = off`);
      const [plan] = await rows<{ 'QUERY PLAN': unknown }>(tx, sql`explain (format json) ${poolPick(50)}`);
      return JSON.stringify(plan?.['QUERY PLAN']);
    });
    expect(text).toContain('phone_numbers_unblasted_idx');
    expect(text).not.toContain('"Node Type":"Sort"');
    expect(text).not.toContain('phone_numbers_pkey');
  });

  it("gives a claim's budget back when it is released, and keeps an unknown send's", async () => {
    const c = await campaign({
      client: users.clientA,
      tag: 'K',
      targets: numbers('7600', 5),
      variants: [{ text: 'Claim' }],
      budgetMessages: 4,
    });
    // a claim takes no more than the budget
    const claimed = await claimFromCampaigns(h.database.db, mine.id, 50, [c.id]);
    expect(claimed).toHaveLength(4);
    expect(claimed.every((t) => t.campaign_id === c.id)).toBe(true);
    expect((await campaignRow(c.id))?.reserved).toBe(4);
    expect(await claimFromCampaigns(h.database.db, theirs.id, 50, [c.id])).toEqual([]);
    // two go back: their budget with them
    await releaseTargets(h.database.db, mine.id, claimed.slice(2));
    expect((await campaignRow(c.id))?.reserved).toBe(2);
    // the holder dies: its started claim is logged unknown and keeps its share, the other returns
    expect(await settleAbandoned(h.database.db, mine.id, 'Asia/Jakarta')).toBe(1);
    expect((await campaignRow(c.id))?.reserved).toBe(1);
    // the figures are counted from the log by the supervisor
    await until(async () => (await campaignRow(c.id))?.unknown === 1, 'the unknown counted');
    const [log] = await q<{ status: string; campaign_id: number }>(
      sql`select status, campaign_id from message_logs where phone_number_id = ${claimed[0]?.id}`,
    );
    expect(log).toEqual({ status: 'unknown', campaign_id: c.id });
  });
});
