import { DEFAULT_TIMEZONE } from '@wa/core/config';
import { rebuildDaily } from '@wa/core/ledger/daily';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { type ApiHarness, apiCalls } from './api';
import { createUser, type TestUser } from './factories';

/** Bank details complete enough for a withdrawal. */
export const BANK = { account_name: 'Siti Aminah', account_bank: 'BCA', account_number: '1234567890' };

/** A settled message log: `status` (sent by default), its `fee`, and `referralFee` paid to `referrer`. */
export interface LogInput {
  status?: string;
  fee?: number;
  referrer?: TestUser | null;
  referralFee?: number;
}

let seq = 0;

/**
 * The money suites' (bonus, referral, withdraw) way to make earnings and read balances, bound to
 * one harness (a hook-filled one too): logs written straight to the table, the rest through the API.
 */
export function moneyHelpers(h: ApiHarness) {
  const { get, put } = apiCalls(h);
  const count = async (query: ReturnType<typeof sql>) => {
    const r = await h.database.db.execute(query);
    return Number((r as unknown as { rows: { n: number }[] }).rows[0].n);
  };
  /** A settled message log: a successful send pays `fee`, and `referralFee` to `referrer`. */
  async function log(user: TestUser, o: LogInput = {}) {
    seq += 1;
    await h.database.db.execute(
      sql`insert into message_logs (user_id, target, status, fee, referrer_id, referral_fee)
          values (${user.id}, ${`62813${String(seq).padStart(8, '0')}`}, ${o.status ?? 'sent'}, ${o.fee ?? 0},
                  ${o.referrer?.id ?? null}, ${o.referralFee ?? 0})`,
    );
    // written around the engine: the ledger's day rows are recounted from the logs
    await rebuildDaily(h.database.db, DEFAULT_TIMEZONE);
  }
  async function setBank(u: TestUser, bank: Partial<typeof BANK>) {
    const res = await put(`/admin/users/${u.id}`, u, bank);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return {
    log,
    setBank,
    /** A member with bank details and `income` rupiah earned by blasting. */
    memberWith: async (income: number, opts: { bank?: boolean } = {}) => {
      const u = await createUser(h.database.db, { role: 'member' });
      if (opts.bank !== false) await setBank(u, BANK);
      if (income) await log(u, { fee: income });
      return u;
    },
    balanceOf: async (u: TestUser) => (await get(`/admin/withdraw/balance/${u.id}`, u)).body.balance as number,
    withdrawalsOf: (u: TestUser) => count(sql`select count(*)::int as n from withdrawals where user_id = ${u.id}`),
    bonusCount: (id: number) => count(sql`select count(*)::int as n from bonuses where id = ${id}`),
  };
}
