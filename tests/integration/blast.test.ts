import { BLAST_TEXTS } from '@wa/shared';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBlastSuite } from '../support/blast';
import { connectAccount, nextEvent, type SavedAccount } from '../support/wa-engine';
import { until } from '../support/wait';

/**
 * Blasting (§2 Blast, §4 account status): who may start and stop it and when, two accounts sharing
 * the targets, the fees and levels it pays, stopping, dropped connections, a dead worker's claim and
 * a blast that survives its worker. The blaster form's one-off send: one-off-send.test.ts.
 */

const { h, users, deliveries, sim, wa, q, start, stop, seedTargets, clearTargets, accountRow } = useBlastSuite();
const { admin, dev, staff, referrer, member, other } = users;

describe('start and stop blasting: who may, and when', () => {
  let acc: SavedAccount;
  beforeAll(async () => {
    acc = (await connectAccount(h, member)).account;
  });

  it('refuses admin, staff, another member and a caller without a token; bad bodies and unknown accounts', async () => {
    await seedTargets(1, '01');
    const admins = await start(admin, acc);
    expect(admins.status).toBe(403);
    expect(admins.body.msg).toBeTruthy();
    expect((await start(staff, acc)).status).toBe(403);
    const others = await start(other, acc);
    expect(others.status).toBe(403);
    expect(others.body.msg).toBe('You are not allowed to do this.');
    expect((await stop(other, acc)).status).toBe(403);
    expect((await request(h.app).post('/api/admin/whatsapp/start-blasting').send({})).status).toBe(401);
    const bad = await wa(member).post('/start-blasting', { whatsappClientId: 'not a device' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBeTruthy();
    const missing = await wa(member).post('/start-blasting', { whatsappClientId: 'id-1700000000000-1' });
    expect(missing.status).toBe(404);
    expect((await accountRow(acc.id)).status).toBe('idle');
    await clearTargets();
  });

  it('refuses to start without an active template or without a target left', async () => {
    const none = await start(member, acc);
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe(BLAST_TEXTS.noTargets);
    await seedTargets(1, '02');
    await h.database.db.execute(sql`update message_templates set status = 'nonactive'`);
    const noTemplate = await start(member, acc);
    expect(noTemplate.status).toBe(400);
    expect(noTemplate.body.msg).toBe(BLAST_TEXTS.noTemplate);
    await h.database.db.execute(sql`update message_templates set status = 'active'`);
    expect((await accountRow(acc.id)).status).toBe('idle');
    expect(deliveries).toEqual([]);
    await clearTargets();
  });

  it('refuses an account that is not connected, naming its number and state', async () => {
    await seedTargets(1, '03');
    const dropped = nextEvent(h, `client-${member.id}`, 'connection.update');
    sim().control(acc.clientid).disconnect();
    await dropped;
    const res = await start(member, acc);
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe(`${acc.phonenumber} is disconnected`);
    const back = nextEvent(h, `client-${member.id}`, 'connection.update');
    sim().control(acc.clientid).reconnect();
    await back;
    await clearTargets();
  });
});

describe('a blast', () => {
  let mine: SavedAccount;
  let theirs: SavedAccount;
  beforeAll(async () => {
    mine = (await connectAccount(h, member)).account;
    theirs = (await connectAccount(h, other)).account;
  });

  it('two accounts share the targets: each number is messaged once, with its placeholders, and paid once', async () => {
    const numbers = await seedTargets(40, '10');
    const mineDone = nextEvent(h, `client-${member.id}`, 'finished', 15_000);
    const theirsDone = nextEvent(h, `client-${other.id}`, 'finished', 15_000);
    const adminSuccess = nextEvent(h, 'client-admin', 'count_success', 15_000);
    const started = await start(member, mine);
    expect(started.status).toBe(200);
    expect(started.body.msg).toBe(BLAST_TEXTS.started);
    expect(started.body.data.status).toBe('sending');
    expect((await start(member, mine)).status).toBe(409); // already sending
    expect((await start(dev, theirs)).status).toBe(200); // dev may start anyone's
    const [a, b] = await Promise.all([mineDone, theirsDone]);
    expect(a).toMatchObject({ deviceId: mine.clientid, state: 'connected', status: 'idle' });
    expect(b).toMatchObject({ deviceId: theirs.clientid, state: 'connected' });

    // every target exactly once, split between the two senders
    const to = deliveries.map((d) => d.to).sort();
    expect(to).toEqual([...numbers].sort());
    expect(new Set(deliveries.map((d) => d.clientId))).toEqual(new Set([mine.clientid, theirs.clientid]));
    const first = deliveries.find((d) => d.to === numbers[0]);
    expect(first?.text).toBe(`Halo *Pelanggan 10-0* (${numbers[0]})`);

    // the admin list hears the target's row with the account's count (§4 phone-number rows)
    const ev = await adminSuccess;
    expect(ev.receiver).toMatchObject({ count_success: 1, count_fail: 0, in_use: 0 });
    expect(typeof (ev.receiver as { last_sent: string }).last_sent).toBe('string');

    // money: the member's own fee and 10% to their referrer; the other member the settings' price
    const logs = await q<{ user_id: number; n: number; fee: number; referral: number; referrer_id: number | null }>(
      sql`select user_id, count(*)::int as n, sum(fee)::int as fee, sum(referral_fee)::int as referral,
                 max(referrer_id) as referrer_id
          from message_logs where status in ('sent', 'delivered', 'read') and target like '6289910%' group by user_id`,
    );
    const byUser = Object.fromEntries(logs.map((l) => [l.user_id, l]));
    const mineCount = deliveries.filter((d) => d.clientId === mine.clientid).length;
    expect(byUser[member.id]).toEqual({
      user_id: member.id,
      n: mineCount,
      fee: mineCount * 150,
      referral: mineCount * 15,
      referrer_id: referrer.id,
    });
    expect(byUser[other.id]).toMatchObject({ n: 40 - mineCount, fee: (40 - mineCount) * 80, referral: 0 });
    expect(await accountRow(mine.id)).toEqual({
      status: 'idle',
      count_success: mineCount,
      count_fail: 0,
      income: mineCount * 150,
    });
    const targets = await q<{ sent: number; in_use: number; ok: number }>(
      sql`select count(last_sent)::int as sent, sum(in_use)::int as in_use, sum(count_success)::int as ok
          from phone_numbers where number like '6289910%'`,
    );
    expect(targets[0]).toEqual({ sent: 40, in_use: 0, ok: 40 });
    const pending = await q<{ n: number }>(sql`select count(*)::int as n from message_logs where status = 'pending'`);
    expect(pending[0]?.n).toBe(0);

    // the template's "Digunakan" counts every blast send, in its detail and in the list (§2 Template)
    const [tpl] = await q<{ id: number }>(sql`select id from message_templates order by id limit 1`);
    const [{ n: used }] = await q<{ n: number }>(
      sql`select count(*)::int as n from message_logs where template_id = ${tpl.id} and status in ('sent', 'delivered', 'read')`,
    );
    expect(used).toBeGreaterThanOrEqual(40);
    const detail = await request(h.app)
      .get(`/api/admin/message/${tpl.id}`)
      .set('Authorization', `Bearer ${admin.token}`);
    expect(detail.body.message.count_use).toBe(used);
    const list = await request(h.app).get('/api/admin/message/list').set('Authorization', `Bearer ${admin.token}`);
    expect(list.body.list.find((t: { id: number }) => t.id === tpl.id).count_use).toBe(used);
  });

  it("moves a member up a level once their delivered messages reach its requirement, and the level's fee applies", async () => {
    const [{ n: sent } = { n: 0 }] = await q<{ n: number }>(
      sql`select count(*)::int as n from message_logs where user_id = ${other.id} and status in ('sent', 'delivered', 'read')`,
    );
    await h.database.db.execute(sql`insert into levels (name, blast_fee, requirement_blast)
      values ('Gold', 500, ${sent + 2}), ('Platinum', 900, ${sent + 1000})`);
    await seedTargets(3, '15');
    const done = nextEvent(h, `client-${other.id}`, 'finished', 10_000);
    expect((await start(other, theirs)).status).toBe(200);
    await done;
    const [user] = await q<{ level: string | null }>(
      sql`select l.name as level from users u left join levels l on l.id = u.level_id where u.id = ${other.id}`,
    );
    expect(user?.level).toBe('Gold');
    const fees = await q<{ fee: number }>(
      sql`select fee from message_logs where user_id = ${other.id} and target like '6289915%' order by id`,
    );
    // the settings' price until the second message made them Gold, then Gold's fee
    expect(fees.map((f) => f.fee)).toEqual([80, 80, 500]);
  });

  it('stops after the message in flight when asked, and the rest stay for later', async () => {
    await seedTargets(30, '11');
    // an hour between two messages (7 s of the suite's 2 ms seconds): the stop lands in the wait
    await h.database.db.execute(
      sql`update users set blast_interval_min = 3600, blast_interval_max = 3600 where id = ${member.id}`,
    );
    const waiting = nextEvent(h, `client-${member.id}`, 'waiting');
    const stopEvent = nextEvent(h, `client-${member.id}`, 'stop');
    expect((await start(member, mine)).status).toBe(200);
    expect((await waiting).waitTime).toBe(3600);
    const res = await stop(member, mine);
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe(BLAST_TEXTS.stopped);
    expect(await stopEvent).toMatchObject({ deviceId: mine.clientid, status: 'idle' });
    // a window in which no second message may leave
    await new Promise((r) => setTimeout(r, 150));
    expect(deliveries).toHaveLength(1);
    expect((await accountRow(mine.id)).status).toBe('idle');
    const left = await q<{ n: number }>(
      sql`select count(*)::int as n from phone_numbers where number like '6289911%' and last_sent is null and in_use = 0`,
    );
    expect(left[0]?.n).toBe(29);
    await h.database.db.execute(
      sql`update users set blast_interval_min = 0, blast_interval_max = 2 where id = ${member.id}`,
    );
    await clearTargets();
  });

  it("waits at least the account's own interval (PUT interval) between two messages", async () => {
    await seedTargets(3, '16');
    expect((await wa(member).put('/interval', { id: mine.id, interval: 30 })).status).toBe(200);
    const waiting = nextEvent(h, `client-${member.id}`, 'waiting');
    expect((await start(member, mine)).status).toBe(200);
    expect((await waiting).waitTime).toBe(30); // the member's own range is 0–2 s
    expect((await stop(member, mine)).status).toBe(200);
    expect((await wa(member).put('/interval', { id: mine.id, interval: 0 })).status).toBe(200);
    await clearTargets();
  });

  it('a dropped connection ends the blast and gives the unsent number back', async () => {
    await seedTargets(10, '12');
    // an hour between two messages: the connection drops in the wait, after the first
    await h.database.db.execute(
      sql`update users set blast_interval_min = 3600, blast_interval_max = 3600 where id = ${member.id}`,
    );
    const waiting = nextEvent(h, `client-${member.id}`, 'waiting');
    expect((await start(member, mine)).status).toBe(200);
    await waiting;
    sim().control(mine.clientid).disconnect();
    await until(async () => (await accountRow(mine.id)).status === 'idle', 'the account to be idle', 10_000);
    expect(deliveries).toHaveLength(1);
    const back = nextEvent(h, `client-${member.id}`, 'connection.update');
    sim().control(mine.clientid).reconnect();
    await back;
    // connected again, but a blast that the connection ended does not restart by itself (a window
    // in which nothing may be sent)
    await new Promise((r) => setTimeout(r, 100));
    expect((await accountRow(mine.id)).status).toBe('idle');
    expect(deliveries).toHaveLength(1);
    await h.database.db.execute(
      sql`update users set blast_interval_min = 0, blast_interval_max = 2 where id = ${member.id}`,
    );
    await clearTargets();
  });

  it('a started claim a dead worker left is settled as unknown and never messaged; its claims not started go back', async () => {
    const [orphan, ahead, ...others] = await seedTargets(5, '13');
    const rest = [ahead, ...others];
    // what a worker that died between claiming and recording leaves behind: the claim whose send
    // had begun, and one claimed ahead that had not
    await h.database.db.execute(
      sql`update phone_numbers set in_use = 1, claimed_by = ${mine.id}, claim_started = (number = ${orphan})
          where number in (${orphan}, ${ahead})`,
    );
    const done = nextEvent(h, `client-${member.id}`, 'finished', 10_000);
    expect((await start(member, mine)).status).toBe(200);
    await done;
    expect(deliveries.map((d) => d.to).sort()).toEqual([...rest].sort());
    const [log] = await q<{ status: string; fee: number }>(
      sql`select status, fee from message_logs where target = ${orphan}`,
    );
    expect(log).toEqual({ status: 'unknown', fee: 0 });
    const [row] = await q<{ in_use: number; sent: boolean }>(
      sql`select in_use, last_sent is not null as sent from phone_numbers where number = ${orphan}`,
    );
    expect(row).toEqual({ in_use: 0, sent: true });
  });

  it('a blast still on when its worker stops resumes on the worker that takes the account over', async () => {
    const numbers = await seedTargets(12, '14');
    await h.database.db.execute(
      sql`update users set blast_interval_min = 5, blast_interval_max = 5 where id = ${member.id}`,
    );
    const waiting = nextEvent(h, `client-${member.id}`, 'waiting');
    expect((await start(member, mine)).status).toBe(200);
    await waiting;
    await h.engine.close(); // the worker goes away; the row still says 'sending'
    expect((await accountRow(mine.id)).status).toBe('sending');
    const done = nextEvent(h, `client-${member.id}`, 'finished', 15_000);
    await h.restartEngine();
    sim().onDelivered((d) => deliveries.push(d));
    await done;
    expect(deliveries.map((d) => d.to).sort()).toEqual([...numbers].sort());
    expect((await accountRow(mine.id)).status).toBe('idle');
    await h.database.db.execute(
      sql`update users set blast_interval_min = 0, blast_interval_max = 2 where id = ${member.id}`,
    );
  });
});
