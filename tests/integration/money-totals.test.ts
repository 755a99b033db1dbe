import { moneyTotalDifferences } from '@wa/core/ledger/pool-counts';
import { MIN_WITHDRAW } from '@wa/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { apiCalls, useApi } from '../support/api';
import { OFFICE_USERS, useUsers } from '../support/factories';
import { moneyHelpers } from '../support/money';

/**
 * Everybody's balance (issue 23) reads the bonus total and the withdrawals holding money from totals
 * the database keeps as bonuses and withdrawals change, never a sum of every row: whatever changes
 * them (a bonus, a withdrawal's request and every move of its status, a member's deletion taking
 * theirs along), the admin's figure equals income + bonuses − held withdrawals summed from the rows.
 */

const h = useApi();
const { admin } = useUsers(() => h.database.db, OFFICE_USERS);
const { get, post, put } = apiCalls(h);
const { memberWith } = moneyHelpers(h);

/** The admin's `all` balance, checked against the rows themselves. */
async function everybody(): Promise<number> {
  const res = await get('/admin/withdraw/balance/all', admin);
  expect(res.status).toBe(200);
  const income = (await get('/admin/withdraw/income/all', admin)).body.income as number;
  const [r] = await rows<{ bonus: number; held: number }>(
    h.database.db,
    sql`select (select coalesce(sum(nominal), 0)::int from bonuses) as bonus,
               (select coalesce(sum(nominal), 0)::int from withdrawals where status in ('requested', 'accepted')) as held`,
  );
  expect(res.body.balance).toBe(income + r.bonus - r.held);
  expect((await get('/admin/bonus/total/all', admin)).body.totalBonus).toBe(r.bonus);
  expect(await moneyTotalDifferences(h.database.db)).toEqual([]);
  return res.body.balance;
}

describe('everybody’s balance', () => {
  it('follows bonuses, withdrawals and their moves, and a member’s deletion', async () => {
    const start = await everybody();
    const siti = await memberWith(40_000);
    const budi = await memberWith(30_000);
    expect(await everybody()).toBe(start + 70_000);

    expect(
      (await post('/admin/bonus/create', admin, { userId: siti.id, nominal: 5_000, reason: 'rajin' })).status,
    ).toBe(201);
    expect(await everybody()).toBe(start + 75_000);

    // a request holds its nominal; accepted it still holds; rejected it gives it back
    const idOf = async (u: { id: number }) =>
      (await rows<{ id: number }>(h.database.db, sql`select max(id) as id from withdrawals where user_id = ${u.id}`))[0]
        .id;
    expect((await post('/admin/withdraw/request', siti, { nominal: MIN_WITHDRAW, userId: siti.id })).status).toBe(201);
    expect(await everybody()).toBe(start + 75_000 - MIN_WITHDRAW);
    expect((await put('/admin/withdraw/update', admin, { id: await idOf(siti), status: 'accepted' })).status).toBe(200);
    expect(await everybody()).toBe(start + 75_000 - MIN_WITHDRAW);
    expect((await post('/admin/withdraw/request', budi, { nominal: MIN_WITHDRAW, userId: budi.id })).status).toBe(201);
    expect(await everybody()).toBe(start + 75_000 - 2 * MIN_WITHDRAW);
    expect((await put('/admin/withdraw/update', admin, { id: await idOf(budi), status: 'rejected' })).status).toBe(200);
    expect(await everybody()).toBe(start + 75_000 - MIN_WITHDRAW);

    // a member's deletion takes their income, bonuses and withdrawals along
    await post('/admin/withdraw/request', budi, { nominal: MIN_WITHDRAW, userId: budi.id });
    await post('/admin/bonus/create', admin, { userId: budi.id, nominal: 2_000, reason: 'baru' });
    expect(await everybody()).toBe(start + 77_000 - 2 * MIN_WITHDRAW);
    await h.database.db.execute(sql`delete from users where id = ${siti.id}`);
    expect(await everybody()).toBe(start + 32_000 - MIN_WITHDRAW);
  });
});
