import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/src/config';
import { rows } from '../../core/src/db/client';
import { DbFileStore } from '../../core/src/files/db-file-store';
import { copyLegacyUploads } from '../../core/src/files/legacy-uploads';
import { createLogger } from '../../core/src/logger';
import { type SimDelivery, simIsRegistered } from '../../workers/src/drivers/sim';
import { bearer, multipart } from '../support/api';
import { type TestUser, TINY_PNG, useUsers } from '../support/factories';
import { connectAccount, nextEvent, type SavedAccount, setSimEnv, useWaHarness, waHelpers } from '../support/wa-engine';

/**
 * Files every host can read (issue 19): the API runs with one DATA_DIR and the engine with another,
 * empty one, as a worker on another host has. Template media and validator files live in the file
 * store (the database), so the engine still sends a template's picture and runs a validator; the
 * public media URL and the private validator route answer as they did when the files were the API
 * host's; and uploads an earlier version left on the API host's disk are served and copied in once.
 */

setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, sendFailRate: 0, registeredRate: 0.35 });
const h = useWaHarness({ blastSecondMs: 2, ownEngineDataDir: true });
const { sim } = waHelpers(h);
const users = useUsers(() => h.database.db, {
  admin: 'admin',
  staff: 'staff',
  otherStaff: 'staff',
  member: 'member',
});
const { admin, staff, otherStaff, member } = users;
const q = <T>(query: ReturnType<typeof sql>) => rows<T>(h.database.db, query);
const deliveries: SimDelivery[] = [];
let memberAcc: SavedAccount;
let staffAcc: SavedAccount;

beforeAll(async () => {
  await h.database.db.execute(sql`update settings set interval_min = 0, interval_max = 0`);
  await h.database.db.execute(
    sql`update users set blast_interval_min = 0, blast_interval_max = 0 where id = ${member.id}`,
  );
  sim().onDelivered((d) => deliveries.push(d));
  memberAcc = (await connectAccount(h, member)).account;
  staffAcc = (await connectAccount(h, staff)).account;
});

/** Creates a template with `picture` as admin, the only active one. */
async function pictureTemplate(text: string, picture: { name: string; data: Buffer }) {
  await h.database.db.execute(sql`update message_templates set status = 'nonactive'`);
  const res = await multipart(
    request(h.app).post('/api/admin/message/create').set(bearer(admin.token)),
    { text },
    picture,
  );
  expect(res.status).toBe(201);
  return res.body.message as { id: number; media: string };
}

/** Blasts `n` fresh targets from the member's account to the end; what the simulator took. */
async function blast(n: number, tag: string): Promise<SimDelivery[]> {
  const numbers = Array.from({ length: n }, (_, i) => `62897${tag}${String(i).padStart(4, '0')}`);
  await h.database.db.execute(sql`update phone_numbers set last_sent = coalesce(last_sent, now()), in_use = 0`);
  for (const number of numbers) {
    await h.database.db.execute(
      sql`insert into phone_numbers (number, name, status) values (${number}, 'Bu', 'active')`,
    );
  }
  deliveries.length = 0;
  const done = nextEvent(h, `client-${member.id}`, 'finished', 15_000);
  const started = await request(h.app)
    .post('/api/admin/whatsapp/start-blasting')
    .set(bearer(member.token))
    .send({ whatsappClientId: memberAcc.clientid, socketClientId: `client-${member.id}`, loop: true });
  expect(started.status).toBe(200);
  await done;
  expect(deliveries.map((d) => d.to).sort()).toEqual(numbers);
  return [...deliveries];
}

describe('a worker with its own, empty DATA_DIR', () => {
  it("sends a template's picture uploaded through the API on another host", async () => {
    const picture = Buffer.concat([TINY_PNG, Buffer.from('promo')]);
    const template = await pictureTemplate('Promo *hari ini*', { name: 'promo.png', data: picture });
    const name = path.basename(template.media);
    const sent = await blast(3, '01');
    for (const d of sent) {
      expect(d).toMatchObject({ clientId: memberAcc.clientid, media: name, mediaSize: picture.length });
      expect(d.text).toBe('Promo *hari ini*');
    }
    // the engine read the store, not the API's disk: its copy is in its own cache, and neither host
    // keeps the upload in DATA_DIR/uploads
    const cached = path.join(h.engineDataDir, 'cache', 'files', 'template', name);
    expect(Buffer.compare(readFileSync(cached), picture)).toBe(0);
    expect(existsSync(path.join(h.engineDataDir, 'uploads'))).toBe(false);
    expect(existsSync(path.join(h.dataDir, 'uploads', 'templates', name))).toBe(false);
    expect(readdirSync(path.join(h.dataDir, 'tmp', 'uploads'))).toEqual([]);
  });

  it('runs a validator uploaded through the API and finds its numbers', async () => {
    const local = Array.from({ length: 30 }, (_, i) => `08170000${String(i).padStart(4, '0')}`);
    const csv = ['number,name', ...local.map((n, i) => `${n},Kontak ${i}`)].join('\n');
    const made = await multipart(
      request(h.app).post('/api/admin/validator/create').set(bearer(staff.token)),
      { whatsapp_id: staffAcc.id, b_insert: 0, interval_min: 0, interval_max: 0 },
      { name: 'kontak.csv', data: csv },
    );
    expect(made.status).toBe(200);
    const v = made.body.validator as { id: number };
    const done = nextEvent(h, `client-${staff.id}`, 'finished', 15_000, (p) => p.validatorId === v.id);
    const started = await request(h.app).post('/api/admin/validator/start').set(bearer(staff.token)).send({ id: v.id });
    expect(started.status).toBe(200);
    await done;
    const registered = (n: string) => simIsRegistered(loadConfig().sim, n);
    const expected = local
      .map((n, i) => ({ number: `62${n.slice(1)}`, name: `Kontak ${i}` }))
      .filter((r) => registered(r.number));
    expect(expected.length).toBeGreaterThan(0);
    const result = await request(h.app).get(`/api/admin/validator/download-result/${v.id}`).set(bearer(staff.token));
    expect(result.body.list).toEqual(expected);
    const [row] = await q<{ position: number; state: string | null }>(
      sql`select position, state from validators where id = ${v.id}`,
    );
    expect(row).toEqual({ position: 30, state: 'finished' });
    expect(existsSync(path.join(h.engineDataDir, 'uploads'))).toBe(false);
  });
});

describe('the routes that serve the stored files', () => {
  let media: string;
  beforeAll(async () => {
    media = (await pictureTemplate('Lihat', { name: 'lihat.png', data: TINY_PNG })).media;
  });

  it('serves template media publicly with the sandbox policy, its type, a 304 for a fresh copy and byte ranges', async () => {
    const res = await request(h.app).get(media);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(res.body as Buffer, TINY_PNG)).toBe(0);
    const etag = res.headers.etag;
    expect(etag).toBeTruthy();
    expect(
      (
        await request(h.app)
          .get(media)
          .set('If-None-Match', etag ?? '')
      ).status,
    ).toBe(304);
    const part = await request(h.app).get(media).set('Range', 'bytes=0-7');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-7/${TINY_PNG.length}`);
    expect(Buffer.compare(part.body as Buffer, TINY_PNG.subarray(0, 8))).toBe(0);
    const head = await request(h.app).head(media);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(TINY_PNG.length));
    for (const missing of [
      '/uploads/templates/0-000000000000.png',
      '/uploads/templates/%2e%2e',
      '/uploads/templates/.x',
    ]) {
      const gone = await request(h.app).get(missing);
      expect(gone.status, missing).toBe(404);
      expect(gone.body, missing).toEqual({ msg: 'File not found' });
    }
  });

  it('keeps a validator file private: its owner downloads it, another member gets 403, the public path 404', async () => {
    const csv = 'number\n6281700009999\n';
    const made = await multipart(
      request(h.app).post('/api/admin/validator/create').set(bearer(staff.token)),
      { whatsapp_id: staffAcc.id, b_insert: 0, interval_min: 0, interval_max: 0 },
      { name: 'rahasia.csv', data: csv },
    );
    expect(made.status).toBe(200);
    const url = made.body.validator.fileUrl as string;
    const own = await request(h.app).get(url).set(bearer(staff.token));
    expect(own.status).toBe(200);
    expect(own.text).toBe(csv);
    expect(own.headers['content-type']).toMatch(/^text\/csv/);
    expect(own.headers['content-disposition']).toBe('attachment; filename=rahasia.csv');
    expect(own.headers['cache-control']).toMatch(/no-store/);
    expect(own.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    for (const u of [otherStaff, member] as TestUser[]) {
      const refused = await request(h.app).get(url).set(bearer(u.token));
      expect(refused.status, u.role).toBe(403);
      expect(refused.text, u.role).not.toContain('6281700009999');
    }
    expect((await request(h.app).get(url)).status).toBe(401);
    const [stored] = await q<{ name: string }>(
      sql`select name from stored_files where kind = 'validator' order by created_at desc limit 1`,
    );
    for (const path of [`/uploads/validators/${stored?.name}`, `/uploads/templates/${stored?.name}`]) {
      const res = await request(h.app).get(path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain('6281700009999');
    }
  });
});

describe('uploads an earlier version left on the API host', () => {
  it('are served from its disk, copied into the store once at start, and then sent by the other host', async () => {
    const legacy = '1700000000000-0123456789ab.png';
    const picture = Buffer.concat([TINY_PNG, Buffer.from('lama')]);
    const dir = path.join(h.dataDir, 'uploads', 'templates');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, legacy), picture);
    await h.database.db.execute(sql`update message_templates set status = 'nonactive'`);
    await h.database.db.execute(sql`insert into message_templates (text, text_wa, media, status)
      values ('Lama', 'Lama', ${`/uploads/templates/${legacy}`}, 'active')`);
    // before the copy the API host serves it from its disk; the store has no row yet
    const before = await request(h.app).get(`/uploads/templates/${legacy}`);
    expect(before.status).toBe(200);
    expect(Buffer.compare(before.body as Buffer, picture)).toBe(0);
    expect(await q(sql`select name from stored_files where name = ${legacy}`)).toEqual([]);

    const store = new DbFileStore(h.database.db);
    const log = createLogger('silent');
    expect(await copyLegacyUploads(store, h.dataDir, log)).toEqual({ copied: 1, skipped: 0 });
    // once: a later start finds the mark and does nothing
    expect(await copyLegacyUploads(store, h.dataDir, log)).toBeNull();
    expect((await store.get('template', legacy))?.bytes.equals(picture)).toBe(true);

    const sent = await blast(2, '02');
    for (const d of sent) expect(d).toMatchObject({ media: legacy, mediaSize: picture.length, text: 'Lama' });
  });
});
