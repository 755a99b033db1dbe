import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../core/src/db/client';
import { rows } from '../../core/src/db/client';
import { apiAs, bearer, useApiWithRoles } from '../support/api';
import { testDbKind } from '../support/db';
import type { TestUser } from '../support/factories';
import { useTestServer } from '../support/server';
import { until } from '../support/wait';

/**
 * Issue 19, "imports never block blasts": a malformed row costs that row only (with its line and
 * reason), a file with nothing valid is refused, the skipped list in the answer is capped with the
 * full list downloadable by its importer, a client that goes away mid-upload leaves no lock and no
 * file behind, and a blast's row updates never wait on a running import.
 */
const { h, admin, dev } = useApiWithRoles();
const api = (u: TestUser) => apiAs(h, u, '/api/admin/phonenumber');
const total = async () => (await api(admin).get('/list-per-page')).body.meta.total as number;
const numbers = (list: { number: string }[]) => list.map((c) => c.number);
const onPostgres = testDbKind() === 'postgres';

/**
 * The table locks other sessions hold on phone_numbers or its indexes that a row update would wait
 * on (a relation extension lock, taken for a moment while a file grows, is not one of them).
 */
async function blockingLocks(db: Db): Promise<string[]> {
  const held = await rows<{ mode: string }>(
    db,
    sql`select c.relname || ' ' || l.mode as mode from pg_locks l join pg_class c on c.oid = l.relation
        where l.pid <> pg_backend_pid() and l.granted and l.locktype = 'relation'
          and (c.relname = 'phone_numbers' or c.relname like 'phone_numbers\\_%')
          and l.mode not in ('AccessShareLock', 'RowShareLock', 'RowExclusiveLock')`,
  );
  return held.map((l) => l.mode);
}

/** A blast's claim of one number, from its own connection, refused if it waits more than a second. */
async function claim(db: Db, id: number): Promise<number> {
  const t0 = Date.now();
  await db.transaction(async (tx) => {
    if (onPostgres) await tx.execute(sql`set local lock_timeout = '1s'`);
    await tx.execute(sql`update phone_numbers set in_use = 1 where id = ${id}`);
    await tx.execute(sql`update phone_numbers set in_use = 0 where id = ${id}`);
  });
  return Date.now() - t0;
}

describe('malformed rows in an import', () => {
  it('skips a bad quote on line 2 with its line and reason and imports every good row after it', async () => {
    const good = Array.from({ length: 500 }, (_, i) => `0812${String(10_000_000 + i)},Good ${i},active`);
    const csv = ['number,name,status', '081299000001,"Bad quote,active', ...good, '081299000002,"Quoted, ok",active'];
    const res = await api(admin).upload('/import', 'quote.csv', csv.join('\n'));
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(501);
    expect(numbers(res.body.created).slice(0, 2)).toEqual(['6281210000000', '6281210000001']);
    expect(res.body.created[500]).toMatchObject({ number: '6281299000002', name: 'Quoted, ok' });
    expect(res.body.skipped).toEqual([
      expect.objectContaining({ line: 2, reason: 'Unclosed quote: a quoted field does not end on its line', id: null }),
    ]);
    expect(res.body).toMatchObject({ skipped_total: 1, totalSkipped: 1, skipped_id: expect.any(String) });
  });

  it('skips a row with more columns than the header, with its line, and keeps a trailing comma', async () => {
    const csv = 'number,name,status\n081299000011,Smith, John,active\n081299000012,Ok,active,\n081299000013,Also ok\n';
    const res = await api(admin).upload('/import', 'columns.csv', csv);
    expect(res.status).toBe(200);
    expect(numbers(res.body.created)).toEqual(['6281299000012', '6281299000013']);
    expect(res.body.skipped).toEqual([
      expect.objectContaining({ line: 2, number: '081299000011', reason: 'Wrong columns: 4 fields, the header has 3' }),
    ]);
  });

  it('refuses a file with no valid number with a 400 and a message, and imports nothing', async () => {
    const before = await total();
    const junk = await api(admin).upload('/import', 'junk.csv', 'lorem ipsum\n<html>,</html>\n"unclosed\n');
    expect(junk.status).toBe(400);
    expect(junk.body).toEqual({
      msg: 'The file has no valid phone number: 3 rows skipped (line 1: Not a phone number).',
    });
    const json = await api(admin).upload('/import', 'junk.json', '[1, true, {"name": "x"}]');
    expect(json.status).toBe(400);
    expect(json.body.msg).toMatch(/^The file has no valid phone number: 3 rows skipped/);
    expect(await total()).toBe(before);
  });

  it('lists the first 1,000 skipped rows with the total, and the full list downloads for its importer only', async () => {
    const bad = Array.from({ length: 1500 }, (_, i) => `not-a-number-${i},Junk ${i}`);
    const csv = ['number,name', '081299000021,First', ...bad, '081299000022,Last'].join('\n');
    const res = await api(admin).upload('/import', 'many-bad.csv', csv);
    expect(res.status).toBe(200);
    expect(numbers(res.body.created)).toEqual(['6281299000021', '6281299000022']);
    expect(res.body.skipped).toHaveLength(1000);
    expect(res.body.skipped[0]).toEqual({
      line: 3,
      number: 'not-a-number-0',
      name: 'Junk 0',
      status: '',
      id: null,
      reason: 'Not a phone number',
    });
    expect(res.body.skipped[999].line).toBe(1002);
    expect(res.body).toMatchObject({ skipped_total: 1500, totalSkipped: 1500, total: 2 });
    const id = res.body.skipped_id as string;

    const full = await api(admin).get(`/import/skipped/${id}`);
    expect(full.status).toBe(200);
    expect(full.headers['content-type']).toMatch(/^text\/csv/);
    expect(full.headers['content-disposition']).toBe('attachment; filename="phone_numbers_skipped.csv"');
    const lines = full.text.trimEnd().split('\n');
    expect(lines).toHaveLength(1501);
    expect(lines[0]).toBe('line,number,name,status,id,reason');
    expect(lines[1]).toBe('3,not-a-number-0,Junk 0,,,Not a phone number');
    expect(lines[1500]).toBe('1502,not-a-number-1499,Junk 1499,,,Not a phone number');

    // another catalogue user cannot have it, nor anybody without a token; a made-up id is refused
    const other = await api(dev).get(`/import/skipped/${id}`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ msg: 'The skipped list is gone (it is kept for one hour) or is not yours.' });
    const anon = await request(h.app).get(`/api/admin/phonenumber/import/skipped/${id}`);
    expect(anon.status).toBe(401);
    const made = await api(admin).get('/import/skipped/not-an-id');
    expect(made.status).toBe(400);
  });

  it('lists a proxy import the same way, with the proxy as `value`', async () => {
    const res = await apiAs(h, admin, '/api/admin/proxy').upload(
      '/import',
      'p.csv',
      'value,status\n10.9.9.1:8080,active\n"10.9.9.2:8080,active\n10.9.9.1:8080,active\n',
    );
    expect(res.status).toBe(200);
    expect(res.body.skipped).toEqual([
      expect.objectContaining({ line: 3, reason: 'Unclosed quote: a quoted field does not end on its line' }),
      expect.objectContaining({
        line: 4,
        value: '10.9.9.1:8080',
        reason: 'Duplicate in file',
        id: res.body.created[0].id,
      }),
    ]);
    const full = await apiAs(h, admin, '/api/admin/proxy').get(`/import/skipped/${res.body.skipped_id}`);
    expect(full.text.split('\n')[0]).toBe('line,value,status,id,reason');
  });
});

describe.runIf(onPostgres)('a large import beside a blast (PostgreSQL)', () => {
  it("never makes a claim-like row update wait, and holds no lock stronger than a row update's", async () => {
    const db = h.database.db;
    const target = (await api(admin).post('/save', { number: '081298000000', name: 'Target' })).body.phoneNumber;
    const before = await total();
    const lines = ['number,name,status'];
    for (let i = 0; i < 200_000; i++) lines.push(`0813${String(i).padStart(8, '0')},Pelanggan ${i},active`);
    let done = false;
    const importing = request(h.app)
      .post('/api/admin/phonenumber/import')
      .set(bearer(admin.token))
      .attach('file', Buffer.from(lines.join('\n')), 'large.csv')
      .then((res) => {
        done = true;
        return res;
      });
    // the import is inserting: its first chunks are in
    await until(
      async () => (await rows<{ n: number }>(db, sql`select count(*)::int as n from phone_numbers`))[0]?.n > before,
      'the first chunk of the import',
      60_000,
    );
    let whileImporting = 0;
    while (!done) {
      expect(await blockingLocks(db)).toEqual([]);
      expect(await claim(db, target.id)).toBeLessThan(1000);
      if (!done) whileImporting++;
    }
    const res = await importing;
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(200_000);
    expect(whileImporting).toBeGreaterThan(0);
  }, 120_000);
});

describe('a client that goes away mid-upload', () => {
  const server = useTestServer();

  it('ends the import within 10 s with no lock held and no temp file left, and imports nothing of it', async () => {
    const user = await server.createUser({ role: 'admin' });
    const save = await fetch(`${server.url}/api/admin/phonenumber/save`, {
      method: 'POST',
      headers: { ...bearer(user.token), 'content-type': 'application/json' },
      body: JSON.stringify({ number: '081297000000', name: 'Target' }),
    });
    const target = ((await save.json()) as { phoneNumber: { id: number } }).phoneNumber;
    const tmp = path.join(server.dataDir, 'tmp');
    const imports = () => (existsSync(tmp) ? readdirSync(tmp).filter((n) => n.startsWith('import-')) : []);

    const csv = ['number,name'];
    for (let i = 0; i < 100_000; i++) csv.push(`0814${String(i).padStart(8, '0')},Cut ${i}`);
    const boundary = 'cut-off-boundary';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.csv"\r\n` +
        `Content-Type: text/csv\r\n\r\n${csv.join('\n')}\r\n--${boundary}--\r\n`,
    );
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.on('error', () => {});
    socket.write(
      `POST /api/admin/phonenumber/import HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${user.token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.subarray(0, body.length >> 1));
    await until(() => imports().length > 0, 'the import to start reading the upload', 10_000);
    socket.destroy();

    const cut = Date.now();
    await until(() => imports().length === 0, 'the cut-off import to remove its files', 10_000);
    if (onPostgres)
      await until(async () => (await blockingLocks(server.db)).length === 0, 'no lock on phone_numbers', 10_000);
    expect(await claim(server.db, target.id)).toBeLessThan(1000);
    expect(Date.now() - cut).toBeLessThan(10_000);
    const [count] = await rows<{ n: number }>(server.db, sql`select count(*)::int as n from phone_numbers`);
    expect(count?.n).toBe(1);

    // and the next import goes through as usual
    const form = new FormData();
    form.append('file', new Blob(['number\n081297000001\n']), 'next.csv');
    const next = await fetch(`${server.url}/api/admin/phonenumber/import`, {
      method: 'POST',
      headers: bearer(user.token),
      body: form,
    });
    expect(next.status).toBe(200);
    expect(((await next.json()) as { total: number }).total).toBe(1);
  }, 60_000);
});
