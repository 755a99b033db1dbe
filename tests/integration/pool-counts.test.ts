import { collectPoolCounts, poolCountDifferences, recountPool } from '@wa/core/ledger/pool-counts';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { apiAs, useApiWithRoles } from '../support/api';
import { testDbKind } from '../support/db';

/**
 * The pool's blast counts (issue 23): the admin dashboard's "blasted / not yet blasted" come from
 * counts the database keeps as numbers change, never from counting the pool. Whatever changes a
 * number (a save, an edit, an import, a send, an opt-out, a delete, emptying the table), the
 * counts the admin reads equal a count of the pool, also while many connections send at once and
 * the fold collects their rows.
 */

const { h, admin } = useApiWithRoles();
const api = () => apiAs(h, admin, '/api/admin/phonenumber');
const q = <T>(query: ReturnType<typeof sql>) => rows<T>(h.database.db, query);

/** What the admin sees: the pool route and the dashboard's counters say the same. */
async function shown(): Promise<{ blasted: number; unBlasted: number }> {
  const route = await api().get('/count-blast');
  expect(route.status).toBe(200);
  const dashboard = await apiAs(h, admin).get('/admin/dashboard/counters/all');
  expect(dashboard.status).toBe(200);
  expect(dashboard.body.phoneCount).toEqual(route.body);
  expect(await poolCountDifferences(h.database.db)).toEqual([]);
  return route.body;
}

describe('the pool’s blast counts', () => {
  it('follow every change to a number, as a count of the pool says', async () => {
    const start = await shown();
    const ids: number[] = [];
    for (const n of ['081255500001', '081255500002', '081255500003']) {
      const res = await api().post('/save', { number: n, name: 'Pool' });
      expect(res.status).toBe(201);
      ids.push(res.body.phoneNumber.id);
    }
    expect(await shown()).toEqual({ blasted: start.blasted, unBlasted: start.unBlasted + 3 });

    // a nonactive number is not a target; active again, it is
    expect((await api().put(`/${ids[0]}`, { status: 'nonactive' })).status).toBe(200);
    expect(await shown()).toEqual({ blasted: start.blasted, unBlasted: start.unBlasted + 2 });
    expect((await api().put(`/${ids[0]}`, { status: 'active' })).status).toBe(200);
    expect(await shown()).toEqual({ blasted: start.blasted, unBlasted: start.unBlasted + 3 });

    // an import adds its active rows (the nonactive one is in neither count)
    const csv = 'number,name,status\n081255500011,A,active\n081255500012,B,active\n081255500013,C,nonactive\n';
    const imported = await api().upload('/import', 'pool.csv', csv);
    expect(imported.status).toBe(200);
    expect(imported.body.created).toHaveLength(3);
    expect(await shown()).toEqual({ blasted: start.blasted, unBlasted: start.unBlasted + 5 });

    // the first send moves a number from one count to the other; a claim or a second send does not
    await q(sql`update phone_numbers set in_use = 1 where id = ${ids[1]}`);
    expect(await shown()).toEqual({ blasted: start.blasted, unBlasted: start.unBlasted + 5 });
    await q(sql`update phone_numbers set in_use = 0, last_sent = now(), count_success = 1 where id = ${ids[1]}`);
    expect(await shown()).toEqual({ blasted: start.blasted + 1, unBlasted: start.unBlasted + 4 });
    await q(sql`update phone_numbers set last_sent = now(), count_success = 2 where id = ${ids[1]}`);
    expect(await shown()).toEqual({ blasted: start.blasted + 1, unBlasted: start.unBlasted + 4 });

    // an opted-out number sent to once stays blasted; one never sent to leaves the targets
    await q(sql`update phone_numbers set status = 'optout' where id in (${ids[1]}, ${ids[2]})`);
    expect(await shown()).toEqual({ blasted: start.blasted + 1, unBlasted: start.unBlasted + 3 });

    // deleting takes a number out of its count
    expect((await api().del(`/${ids[1]}`)).status).toBe(200);
    expect((await api().del(`/${ids[0]}`)).status).toBe(200);
    expect(await shown()).toEqual({ blasted: start.blasted, unBlasted: start.unBlasted + 2 });
  });

  it('keep the same figures when the fold collects the connections’ rows', async () => {
    await api().post('/save', { number: '081255500021', name: 'Collect' });
    const before = await shown();
    await collectPoolCounts(h.database.db);
    const left = await q<{ pid: number }>(sql`select pid from phone_pool_counts`);
    expect(left.map((r) => r.pid)).toEqual([0]);
    expect(await shown()).toEqual(before);
  });

  it('stay equal to a count of the pool while many connections send and the fold collects', async () => {
    const many = 400;
    await q(sql`insert into phone_numbers (number, name)
                select '6281266' || lpad(g::text, 6, '0'), 'Many' from generate_series(1, ${many}) g`);
    const targets = await q<{ id: number }>(sql`select id from phone_numbers where name = 'Many' order by id`);
    const before = await recountPool(h.database.db);
    // sends of single numbers, as the engine's outcome statements are, from as many connections
    // as the database offers, with the fold collecting all along
    let collecting = true;
    const collector = (async () => {
      let collected = 0;
      while (collecting) collected += await collectPoolCounts(h.database.db);
      return collected;
    })();
    const lanes = testDbKind() === 'postgres' ? 8 : 1;
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let i = lane; i < targets.length; i += lanes) {
          await q(sql`update phone_numbers set last_sent = now(), count_success = count_success + 1
                      where id = ${targets[i].id}`);
        }
      }),
    );
    collecting = false;
    await collector;
    expect(await shown()).toEqual({ blasted: before.blasted + many, unBlasted: before.unBlasted - many });
  });

  it('are zero when the table is emptied', async () => {
    await q(sql`truncate phone_numbers cascade`);
    expect(await shown()).toEqual({ blasted: 0, unBlasted: 0 });
    await api().post('/save', { number: '081255500031', name: 'Again' });
    expect(await shown()).toEqual({ blasted: 0, unBlasted: 1 });
  });
});
