import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBlastSuite } from '../support/blast';
import { createUser, type TestUser } from '../support/factories';
import { connectAccount, nextEvent, type SavedAccount } from '../support/wa-engine';
import { until } from '../support/wait';

/**
 * The blaster form's one-off send (send-message/1) as a job on the account's worker: its pacing,
 * that it never runs beside a blast, and that it survives its worker. Who may send what, and the
 * caps: whatsapp-accounts.test.ts.
 */

const { h, deliveries, sim, wa, q, start, stop, seedTargets, clearTargets } = useBlastSuite();

describe('a one-off send from the blaster form (send-message/1)', () => {
  let acc: SavedAccount;
  let sender: TestUser;
  const sendTo = (numbers: string[]) =>
    wa(sender).post('/send-message/1', { senders: acc.phonenumber, targets: numbers.join(','), message: 'Halo' });
  beforeAll(async () => {
    sender = await createUser(h.database.db, { role: 'member' });
    acc = (await connectAccount(h, sender)).account;
  });

  it("runs as a job on the account's worker, answered once queued, paced by the account's interval", async () => {
    const numbers = await seedTargets(3, '20');
    // 40 interval "seconds" of 2 ms: 80 ms between two messages
    expect((await wa(sender).put('/interval', { id: acc.id, interval: 40 })).status).toBe(200);
    const at: number[] = [];
    const off = sim().onDelivered((d) => {
      if (d.clientId === acc.clientid) at.push(Date.now());
    });
    const waiting = nextEvent(h, `client-${sender.id}`, 'waiting');
    const res = await sendTo(numbers);
    const deliveredAtAnswer = at.length;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ msg: 'Pesan blaster berhasil dikirim ke target.', jobId: expect.any(String), count: 3 });
    // the answer came when the job was queued, before the paced sends were through
    expect(deliveredAtAnswer).toBeLessThan(3);
    const done = await nextEvent(h, `client-${sender.id}`, 'idle', 5000, (p) => p.sendId === res.body.jobId);
    expect(done).toMatchObject({ deviceId: acc.clientid, status: 'idle', count_success: 3, count_fail: 0 });
    expect(await waiting).toMatchObject({ deviceId: acc.clientid, waitTime: 40 });
    off();
    expect(deliveries.filter((d) => d.clientId === acc.clientid).map((d) => d.to)).toEqual(numbers);
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(75);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(75);
    // a one-off message is not a blast: the targets stay unsent for blasts, and nothing is paid
    const [row] = await q<{ sent: number; logs: number }>(
      sql`select count(last_sent)::int as sent,
                 (select count(*)::int from message_logs where whatsapp_id = ${acc.id}) as logs
          from phone_numbers where number like '6289920%'`,
    );
    expect(row).toEqual({ sent: 0, logs: 0 });
    await clearTargets();
  });

  it('does not run beside a blast on the same account, either way round', async () => {
    const numbers = await seedTargets(2, '21');
    // 300 interval "seconds" of 2 ms: 600 ms between two messages
    expect((await wa(sender).put('/interval', { id: acc.id, interval: 300 })).status).toBe(200);
    const sent = await sendTo(numbers);
    expect(sent.status).toBe(200);
    const blocked = await start(sender, acc);
    expect(blocked.status).toBe(409);
    expect(blocked.body.msg).toBe('Sedang mengirim');
    await nextEvent(h, `client-${sender.id}`, 'idle', 5000, (p) => p.sendId === sent.body.jobId);

    const waiting = nextEvent(h, `client-${sender.id}`, 'waiting');
    expect((await start(sender, acc)).status).toBe(200);
    await waiting;
    const res = await sendTo(numbers);
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('Sedang mengirim');
    expect((await stop(sender, acc)).status).toBe(200);
    await clearTargets();
  });

  it('interrupted by its worker stopping, it goes on where it stopped on the next holder; nobody gets it twice', async () => {
    const numbers = await seedTargets(6, '22');
    expect((await wa(sender).put('/interval', { id: acc.id, interval: 20 })).status).toBe(200);
    const res = await sendTo(numbers);
    expect(res.status).toBe(200);
    await until(() => deliveries.filter((d) => d.clientId === acc.clientid).length >= 2, 'two sends', 10_000);
    await h.engine.close();
    const done = nextEvent(h, `client-${sender.id}`, 'idle', 15_000, (p) => p.sendId === res.body.jobId);
    await h.restartEngine();
    sim().onDelivered((d) => deliveries.push(d));
    await done;
    const to = deliveries.filter((d) => d.clientId === acc.clientid).map((d) => d.to);
    expect(to).toEqual(numbers);
    expect((await wa(sender).put('/interval', { id: acc.id, interval: 0 })).status).toBe(200);
    await clearTargets();
  });

  it("never paces faster than the member's minimum interval: the account's own interval is a floor, not a bypass", async () => {
    const [{ min }] = await q<{ min: number | null }>(
      sql`select blast_interval_min as min from users where id = ${sender.id}`,
    );
    // the admin's minimum for this member: 30 interval "seconds" of 2 ms, 60 ms between two messages
    await h.database.db.execute(sql`update users set blast_interval_min = 30 where id = ${sender.id}`);
    try {
      const paced = async (interval: number, tag: string) => {
        expect((await wa(sender).put('/interval', { id: acc.id, interval })).status).toBe(200);
        const numbers = await seedTargets(3, tag);
        const at: number[] = [];
        const off = sim().onDelivered((d) => {
          if (d.clientId === acc.clientid) at.push(Date.now());
        });
        // the waits announced between two messages (a first, shorter one may finish the last send's)
        const waits: number[] = [];
        const stopListening = await h.bus.subscribe(`ws:client-${sender.id}`, (m) => {
          const { event, payload } = m as { event: string; payload: { waitTime: number } };
          if (event === 'waiting') waits.push(payload.waitTime);
        });
        const res = await sendTo(numbers);
        expect(res.status).toBe(200);
        await nextEvent(h, `client-${sender.id}`, 'idle', 5000, (p) => p.sendId === res.body.jobId);
        off();
        await stopListening();
        await clearTargets();
        return { waitTime: Math.max(...waits), gaps: [at[1] - at[0], at[2] - at[1]] };
      };
      // interval 0 (or anything below the minimum) waits the minimum
      const zero = await paced(0, '23');
      expect(zero.waitTime).toBe(30);
      for (const gap of zero.gaps) expect(gap).toBeGreaterThanOrEqual(55);
      // an account interval above the minimum is kept
      const longer = await paced(45, '24');
      expect(longer.waitTime).toBe(45);
      for (const gap of longer.gaps) expect(gap).toBeGreaterThanOrEqual(85);
    } finally {
      await h.database.db.execute(sql`update users set blast_interval_min = ${min} where id = ${sender.id}`);
      await wa(sender).put('/interval', { id: acc.id, interval: 0 });
    }
  });
});
