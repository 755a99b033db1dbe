import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach } from 'vitest';
import { rows } from '../../core/src/db/client';
import type { SimDelivery } from '../../workers/src/drivers/sim';
import { type TestUser, useUsers } from './factories';
import { type SavedAccount, setSimEnv, useWaHarness, waHelpers } from './wa-engine';

/**
 * What the blast suites (blast.test.ts, one-off-send.test.ts) start from: an engine on the simulator
 * (quick pairing, every send succeeds, one interval "second" of 2 ms), admin, dev, staff, a member
 * with a referrer and another member, the settings' price 80 and 10% to referrers, the member's own
 * fee 150 and intervals 0–2 s, and one active template; the ledger folded every second. Everything is filled in by beforeAll;
 * `deliveries` holds what the simulator delivered during the current test.
 */
export function useBlastSuite() {
  setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, sendFailRate: 0 });
  // the ledger is folded every second while the blasts write it (issue 23)
  const h = useWaHarness({ blastSecondMs: 2, ledgerFoldMs: 1000 });
  const { wa, sim } = waHelpers(h);
  const deliveries: SimDelivery[] = [];
  beforeAll(() => {
    sim().onDelivered((d) => deliveries.push(d));
  });
  const users = useUsers(() => h.database.db, {
    admin: 'admin',
    dev: 'dev',
    staff: 'staff',
    referrer: 'member',
    member: (made) => ({ role: 'member', referrerId: made.referrer.id }),
    other: 'member',
  });
  beforeAll(async () => {
    const db = h.database.db;
    // member: fee 150 of their own, intervals 0–2 s; other: the settings' price; 10% to referrers
    await db.execute(sql`insert into settings (id, interval_min, interval_max, price, bank_names, colors, referral_percent)
    values (1, 0, 1, 80, 'BCA', '#000000', 10)
    on conflict (id) do update set interval_min = 0, interval_max = 1, price = 80, referral_percent = 10`);
    await db.execute(
      sql`update users set blast_fee = 150, blast_interval_min = 0, blast_interval_max = 2 where id = ${users.member.id}`,
    );
    await db.execute(sql`insert into message_templates (text, text_wa, status)
    values ('<p>Halo <b>{name}</b></p>', 'Halo *{name}* ({phoneNumber})', 'active')`);
  });
  beforeEach(() => {
    deliveries.length = 0;
  });
  const q = <T>(query: ReturnType<typeof sql>) => rows<T>(h.database.db, query);
  return {
    h,
    users,
    deliveries,
    wa,
    sim,
    q,
    start: (u: TestUser, acc: SavedAccount) =>
      wa(u).post('/start-blasting', { whatsappClientId: acc.clientid, socketClientId: `client-${u.id}`, loop: true }),
    stop: (u: TestUser, acc: SavedAccount) =>
      wa(u).post('/stop-blasting', { whatsappClientId: acc.clientid, socketClientId: `client-${u.id}`, loop: true }),
    /** `n` fresh target numbers named after their index; returns their numbers. */
    seedTargets: async (n: number, tag: string): Promise<string[]> => {
      const numbers = Array.from({ length: n }, (_, i) => `62899${tag}${String(i).padStart(4, '0')}`);
      for (const [i, number] of numbers.entries()) {
        await h.database.db.execute(
          sql`insert into phone_numbers (number, name, status) values (${number}, ${`Pelanggan ${tag}-${i}`}, 'active')`,
        );
      }
      return numbers;
    },
    /** No target left: every number so far counts as sent, so each test sees only its own. */
    clearTargets: async () => {
      await h.database.db.execute(sql`update phone_numbers set last_sent = coalesce(last_sent, now()), in_use = 0`);
    },
    accountRow: (id: number) =>
      q<{ status: string; count_success: number; count_fail: number; income: number }>(
        sql`select status, count_success, count_fail, income::int as income from whatsapp_accounts where id = ${id}`,
      ).then((r) => r[0]),
  };
}
