import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IMPORT_TUNING } from '../../core/src/config-engine';
import { rows } from '../../core/src/db/client';
import { type ApiHarness, bearer, setupApi } from '../support/api';
import { createUser, type TestUser } from '../support/factories';

// a large import goes in chunks, each its own transaction, with the table's indexes and row-count
// trigger kept (issue 19: nothing a blast waits on). Chunks of two rows make a small file take
// several of them.
let h: ApiHarness;
let admin: TestUser;

const upload = (csv: string) =>
  request(h.app)
    .post('/api/admin/phonenumber/import')
    .set(bearer(admin.token))
    .attach('file', Buffer.from(csv), 'numbers.csv');

describe.each([
  { path: 'in chunks of two rows', chunkRows: 2 },
  { path: 'in one chunk', chunkRows: 20_000 },
])('a large import $path', ({ chunkRows }) => {
  beforeAll(async () => {
    h = await setupApi({ importTuning: { ...DEFAULT_IMPORT_TUNING, chunkRows } });
    admin = await createUser(h.database.db, { role: 'admin' });
  });
  afterAll(async () => {
    await h.close();
  });

  it('keeps every index, the exact count and the file order, and skips as usual', async () => {
    const before = await rows<{ indexname: string }>(
      h.database.db,
      sql`select indexname from pg_indexes where tablename = 'phone_numbers' order by 1`,
    );
    const first = await upload('number,name\n081200000001,A\n081200000002,B\n081200000001,C\n');
    expect(first.status).toBe(200);
    expect(first.body.created.map((c: { number: string }) => c.number)).toEqual(['6281200000001', '6281200000002']);
    const ids = first.body.created.map((c: { id: number }) => c.id);
    expect(ids[1]).toBe(ids[0] + 1);
    expect(first.body.skipped).toEqual([
      expect.objectContaining({ number: '6281200000001', reason: 'Duplicate in file', id: ids[0] }),
    ]);
    // more new rows than the table holds: the rebuild path again, with a row already registered
    const second = await upload('number,name\n081200000002,B\n081200000003,D\n081200000004,E\n081200000005,F\n');
    expect(second.body.created.map((c: { number: string }) => c.number)).toEqual([
      '6281200000003',
      '6281200000004',
      '6281200000005',
    ]);
    expect(second.body.skipped).toEqual([
      expect.objectContaining({ number: '6281200000002', reason: 'Already registered', id: ids[1] }),
    ]);
    const after = await rows<{ indexname: string }>(
      h.database.db,
      sql`select indexname from pg_indexes where tablename = 'phone_numbers' order by 1`,
    );
    expect(after).toEqual(before);
    const [stats] = await rows<{ row_count: number }>(
      h.database.db,
      sql`select row_count::int from table_stats where name = 'phone_numbers'`,
    );
    expect(stats?.row_count).toBe(5);
    const page = await request(h.app).get('/api/admin/phonenumber/list-per-page?page=1').set(bearer(admin.token));
    expect(page.body.meta.total).toBe(5);
    // names with the characters COPY's text format escapes arrive unchanged
    const odd = 'Back\\slash\ttab "quote"';
    const third = await upload(`number,name\n081200000009,"${odd.replace(/"/g, '""')}"\n`);
    expect(third.body.created[0]).toMatchObject({ number: '6281200000009', name: odd });
    const stored = await request(h.app)
      .get(`/api/admin/phonenumber/${third.body.created[0].id}`)
      .set(bearer(admin.token));
    expect(stored.body.phoneNumber).toMatchObject({ name: odd });
    // the unique index is back: a duplicate cannot slip in
    const dup = await request(h.app)
      .post('/api/admin/phonenumber/save')
      .set(bearer(admin.token))
      .send({ number: '081200000005', name: 'Z' });
    expect(dup.status).toBe(409);
  });
});
