import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { recordReceipt } from '../../workers/src/engine/receipts.repo';
import { createUser, type TestUser } from '../support/factories';
import { freshTargets } from '../support/safety';
import { setSimEnv, useWaHarness, waHelpers } from '../support/wa-engine';
import { until } from '../support/wait';

/**
 * Delivery receipts (issue 11, first part): the drivers' receipts settle on the message log by the
 * message's WhatsApp id. Payouts, statuses and reports on them are not built yet.
 */

// every message is delivered and read, 10 ms apart
setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 0, sendFailRate: 0 });
process.env.SIM_DELIVER_RATE = '1';
process.env.SIM_READ_RATE = '1';
process.env.SIM_ACK_DELAY_MS = '10';

const h = useWaHarness({ blastSecondMs: 1 });
const { wa, connect } = waHelpers(h);
let member: TestUser;
let acc: { id: number; clientid: string };

const logs = () =>
  rows<{ wa_message_id: string; sent_at: Date | null; delivered_at: Date | null; read_at: Date | null }>(
    h.database.db,
    sql`select wa_message_id, sent_at, delivered_at, read_at from message_logs where whatsapp_id = ${acc.id} order by id`,
  );

beforeAll(async () => {
  member = await createUser(h.database.db, { role: 'member' });
  await h.database.db.execute(
    sql`update users set blast_interval_min = 0, blast_interval_max = 0 where id = ${member.id}`,
  );
  await h.database.db.execute(sql`update settings set interval_min = 0, interval_max = 0`);
  await h.database.db.execute(
    sql`insert into message_templates (text, text_wa, status) values ('x', 'Halo', 'active')`,
  );
  acc = (await connect(member)).account;
});

describe('receipts', () => {
  it('a blast message gets its sent, delivered and read times from the receipts, in that order', async () => {
    await freshTargets(h.database.db, 3, '501', { prefix: '62833', name: 'R' });
    expect((await wa(member).post('/start-blasting', { whatsappClientId: acc.clientid })).status).toBe(200);
    await until(async () => {
      const l = await logs();
      return l.length === 3 && l.every((r) => r.read_at !== null);
    }, 'every message read');
    for (const r of await logs()) {
      expect(r.sent_at).not.toBeNull();
      expect(new Date(r.delivered_at as Date).getTime()).toBeGreaterThanOrEqual(new Date(r.sent_at as Date).getTime());
      expect(new Date(r.read_at as Date).getTime()).toBeGreaterThanOrEqual(new Date(r.delivered_at as Date).getTime());
    }
  });

  it('keeps the first time of each receipt, ignores unknown ids and other accounts, and settles wherever it arrives', async () => {
    const [first] = await logs();
    const before = first.read_at;
    expect(await recordReceipt(h.database.db, acc.id, first.wa_message_id, 'read')).toBe(true);
    expect((await logs())[0].read_at).toEqual(before);
    expect(await recordReceipt(h.database.db, acc.id, 'true_62800@c.us_UNKNOWN', 'delivered')).toBe(false);
    expect(await recordReceipt(h.database.db, acc.id + 999, first.wa_message_id, 'delivered')).toBe(false);
    // a failed receipt is for the payout rules, not recorded here yet
    expect(await recordReceipt(h.database.db, acc.id, first.wa_message_id, 'failed')).toBe(false);
  });
});
