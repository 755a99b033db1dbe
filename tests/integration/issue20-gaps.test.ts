import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { apiAs } from '../support/api';
import { useUsers } from '../support/factories';
import { fullSpeedBlasts } from '../support/safety';
import { nextEvent as nextEventOf, type SavedAccount, setSimEnv, useWaHarness, waHelpers } from '../support/wa-engine';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 20, two items its own tests left without a check that fails without the fix:
 * - `progressing` of the tools carries `value`, `target` and `progress` (it had `{value, progress}`);
 * - rule #1 ending a running blast is told as exactly one `blast.finished` (reason `suspended`),
 *   however many revokes arrive at once.
 */
setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, sendFailRate: 0, registeredRate: 0.35 });
process.env.SIM_DELIVER_RATE = '0';
process.env.SIM_READ_RATE = '0';

const h = useWaHarness({ blastSecondMs: 2, webhooks: { timeoutMs: 2000, retryBaseMs: 40, retryForMs: 60_000 } });
const { wa, connect, sim } = waHelpers(h);
const { admin, member, staff } = useUsers(() => h.database.db, { admin: 'admin', member: 'member', staff: 'staff' });
const receiver = new WebhookReceiver();
const db = () => h.database.db;

beforeAll(async () => {
  await receiver.start();
  await fullSpeedBlasts(db());
  await db().execute(sql`update settings set daily_cap_start = 100000, daily_cap_max = 100000`);
  const made = await apiAs(h, admin, '/api/admin/webhooks').post('', {
    url: receiver.url(),
    events: ['blast.finished'],
  });
  expect(made.status).toBe(201);
});
afterAll(async () => {
  await receiver.close();
});

describe("a tool's progressing", () => {
  it('carries value, target (how many numbers it checks) and progress', async () => {
    const { account } = await connect(staff);
    const created = await apiAs(h, staff, '/api/admin/generator').post('/create', {
      start_number: '6281390000000',
      end_number: '6281390000019',
      whatsapp_id: account.id,
      b_insert: 1,
      interval_min: 0,
      interval_max: 0,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.generator.id;
    const progressing = nextEventOf(h, `client-${staff.id}`, 'progressing', 10_000, (p) => p.generatorId === id);
    expect((await apiAs(h, staff, '/api/admin/generator').post('/start', { id })).status).toBe(200);
    const p = await progressing;
    expect(p).toMatchObject({ deviceId: account.clientid, generatorId: id, target: 20 });
    expect(p.value).toMatch(/^62813900000\d\d$/);
    expect(typeof p.progress).toBe('number');
    expect(p.progress).toBeGreaterThanOrEqual(0);
    expect(p.progress).toBeLessThanOrEqual(100);
  });
});

describe('rule #1 during a blast', () => {
  /** The blast.finished webhooks written for `acc`, once its loop has ended. */
  async function blastEndsOf(acc: SavedAccount): Promise<Array<{ reason: string; message: string }>> {
    const ends = async () => {
      await h.engine.webhooks.flush();
      const found = await rows<{ body: string }>(
        db(),
        sql`select body from webhook_deliveries where event = 'blast.finished' order by id`,
      );
      return found
        .map((r) => JSON.parse(r.body).data as { account_id: number; reason: string; message: string })
        .filter((d) => d.account_id === acc.id)
        .map(({ reason, message }) => ({ reason, message }));
    };
    await until(() => !h.engine.host.blasting(acc.clientid), 'the blast loop to end');
    await until(async () => (await ends()).length > 0, "the blast's end told");
    // a late second one would be written by now; look once more after a moment
    await new Promise((r) => setTimeout(r, 300));
    return ends();
  }

  it('two blast messages deleted at once end the run with one blast.finished, as suspended', async () => {
    const { account } = await connect(member);
    await db().execute(sql`update phone_numbers set last_sent = coalesce(last_sent, now()), in_use = 0`);
    await db().execute(sql`insert into phone_numbers (number, name)
      select '628791' || lpad(i::text, 5, '0'), 'Target' from generate_series(0, 2999) i`);
    const started = await wa(member).post('/start-blasting', { whatsappClientId: account.clientid });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const sent = () =>
      rows<{ wa_message_id: string }>(
        db(),
        sql`select wa_message_id from message_logs where whatsapp_id = ${account.id}
          and wa_message_id is not null order by id limit 2`,
      );
    await until(async () => (await sent()).length === 2, 'two blast messages sent');
    const [a, b] = await sent();
    const phone = sim().control(account.clientid);
    phone.revoke(a.wa_message_id);
    phone.revoke(b.wa_message_id);
    const ends = await blastEndsOf(account);
    expect(ends).toEqual([{ reason: 'suspended', message: expect.stringMatching(/rule #1/) }]);
    const [row] = await rows<{ status: string; suspended: boolean }>(
      db(),
      sql`select status, suspended from whatsapp_accounts where id = ${account.id}`,
    );
    expect(row).toEqual({ status: 'idle', suspended: true });
  });
});
