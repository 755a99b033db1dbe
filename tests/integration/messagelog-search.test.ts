import { DEFAULT_TIMEZONE } from '@wa/core/config';
import { rebuildDaily } from '@wa/core/ledger/daily';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { apiCalls, useApi } from '../support/api';
import { createUser, type TestUser } from '../support/factories';

/**
 * The message log's search by the start of the target number (issue 23) finds its page three ways:
 * a prefix with few matches from the target's index, a broad one among the newest logs, and a broad
 * one whose matches all lie far back from the target's index again. Whichever way, the page is what
 * the log ordered newest first holds at that offset.
 */

const h = useApi();
const { get } = apiCalls(h, '/api/admin');
let admin: TestUser;

const q = <T>(query: ReturnType<typeof sql>) => rows<T>(h.database.db, query);

beforeAll(async () => {
  const db = h.database.db;
  admin = await createUser(db, { role: 'admin' });
  const member = await createUser(db, { role: 'member' });
  // 12,000 messages to 6287777… long ago (more than the count's cap), then 25,000 newer ones to
  // 6281111… (more than the newest logs a broad search looks through first), a few to 6289999…
  await db.execute(sql`
    insert into message_logs (user_id, target, status, fee, created_at)
    select ${member.id}, '6287777' || lpad((g % 3000)::text, 6, '0'), 'sent', 100,
           now() - interval '20 days' + g * interval '1 second'
    from generate_series(1, 12000) g`);
  await db.execute(sql`
    insert into message_logs (user_id, target, status, fee, created_at)
    select ${member.id}, '6281111' || lpad(g::text, 6, '0'), case when g % 10 = 0 then 'failed' else 'read' end,
           case when g % 10 = 0 then 0 else 100 end, now() - interval '2 days' + g * interval '1 second'
    from generate_series(1, 25000) g`);
  await db.execute(sql`
    insert into message_logs (user_id, target, status, fee, created_at)
    select ${member.id}, '6289999' || lpad(g::text, 6, '0'), 'delivered', 100, now() - interval '3 days' + g * interval '1 minute'
    from generate_series(1, 30) g`);
  await rebuildDaily(db, DEFAULT_TIMEZONE);
});

/** The log's ids that `search` matches, newest first, at a page of 20. */
async function expected(search: string, page: number): Promise<number[]> {
  const list = await q<{ id: number }>(
    sql`select id from message_logs where target like ${`${search}%`}
        order by created_at desc, id desc limit 20 offset ${(page - 1) * 20}`,
  );
  return list.map((r) => Number(r.id));
}

describe('GET /api/admin/messagelog/list-per-page?search=', () => {
  it.each([
    ['few matches, from the target index', '6289999', 1, 30],
    ['few matches, its second page', '6289999', 2, 30],
    ['many matches among the newest logs', '6281111', 1, 10_000],
    ['many matches, a deep page', '6281111', 400, 10_000],
    ['many matches, all far back', '6287777', 1, 10_000],
    ['many matches far back, a deep page', '6287777', 300, 10_000],
  ])('%s: the page the ordered log holds', async (_what, search, page, total) => {
    const res = await get(`/messagelog/list-per-page?search=${search}&page=${page}`, admin);
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(total);
    expect(res.body.data.map((l: { id: number }) => l.id)).toEqual(await expected(search, page));
    expect(res.body.data.every((l: { target: string }) => l.target.startsWith(search))).toBe(true);
  });
});
