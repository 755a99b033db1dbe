import { proto } from '@whiskeysockets/baileys';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { BaileysDriver } from '../../workers/src/drivers/baileys';
import { DbAuthKeyStore } from '../../workers/src/drivers/baileys-auth';
import { FakeWhatsApp } from '../../workers/src/drivers/baileys-fake';
import { apiAs } from '../support/api';
import { useUsers } from '../support/factories';
import { newDeviceId, nextEvent, useWaHarness, waHelpers } from '../support/wa-engine';
import { until } from '../support/wait';

/**
 * The browserless engine end to end (issue 12): an installation whose default engine is Baileys,
 * with the real driver and its auth state in the database, over a fake WhatsApp that speaks
 * Baileys' event shapes. A member pairs by QR or by pairing code on the same routes as ever, blasts
 * with receipts, and the account comes back on a restarted worker from the database alone.
 */
const whatsapp = new FakeWhatsApp();
const h = useWaHarness({
  blastSecondMs: 1,
  defaultEngine: 'baileys',
  driver: (store, db) => new BaileysDriver({ store, keys: new DbAuthKeyStore(db), socketFactory: whatsapp.factory }),
});
afterAll(() => whatsapp.close());
const { member, staff } = useUsers(() => h.database.db, { member: 'member', staff: 'staff' });
const { wa } = waHelpers(h);
const q = <T>(query: ReturnType<typeof sql>) => rows<T>(h.database.db, query);

/** new-client → the code the create page shows → the phone links → save, as the create page does it. */
async function pair(opts: { phoneNumber?: string; number: string }) {
  const deviceId = newDeviceId();
  const created = await wa(member).post('/new-client', {
    deviceId,
    ...(opts.phoneNumber ? { phoneNumber: opts.phoneNumber } : {}),
  });
  expect(created.status).toBe(201);
  const shown = await wa(member).get(`/qr-new-client/${deviceId}`);
  expect(shown.status).toBe(200);
  const authenticated = nextEvent(h, `client-${member.id}`, 'authenticated');
  whatsapp.link(deviceId, opts.number, 'Sari');
  const auth = await authenticated;
  const saved = await wa(member).post('/save', { clientid: deviceId, ...(auth.clientInfo as object) });
  expect(saved.status).toBe(201);
  return { deviceId, shown: shown.body as { qr: string | null; code: string | null }, account: saved.body.whatsapp };
}

describe('accounts on the browserless engine', () => {
  let deviceId = '';
  let accountId = 0;

  it('pairs by QR on the installation default engine: the account records it, its session is in the database', async () => {
    const paired = await pair({ number: '6281377700001' });
    ({ deviceId } = paired);
    accountId = paired.account.id;
    expect(paired.shown.qr).toBe('2@fake-qr-1');
    expect(paired.account).toMatchObject({ phonenumber: '6281377700001', state: 'connected' });
    const [row] = await q<{ engine: string; stored: boolean }>(
      sql`select engine, exists(select 1 from whatsapp_sessions where session_id = clientid) as stored
          from whatsapp_accounts where id = ${accountId}`,
    );
    expect(row).toEqual({ engine: 'baileys', stored: true });
    // Baileys uploads its pre-keys once logged in: they land in the database
    await whatsapp.socket(deviceId).auth.keys.set({
      'pre-key': { '1': { public: Buffer.alloc(32, 1), private: Buffer.alloc(32, 2) } },
    });
    const [keys] = await q<{ n: number }>(
      sql`select count(*)::int as n from whatsapp_session_keys where session_id = ${deviceId}`,
    );
    expect(keys?.n).toBe(1);
  });

  it('pairs by pairing code: the create page gets the code WhatsApp issued for the number', async () => {
    const paired = await pair({ phoneNumber: '6281377700002', number: '6281377700002' });
    expect(paired.shown).toEqual({ qr: null, code: 'CODE0001' });
    expect(whatsapp.socketsOf(paired.deviceId)[0]?.pairingRequests).toEqual(['6281377700002']);
    expect(paired.account).toMatchObject({ phonenumber: '6281377700002', state: 'connected' });
  });

  it('blasts: every target once, numbers checked, receipts settle on the log', async () => {
    const db = h.database.db;
    await db.execute(sql`update users set blast_fee = 100, blast_interval_min = 0, blast_interval_max = 0`);
    await db.execute(
      sql`insert into message_templates (text, text_wa, status) values ('Halo', 'Halo {name}', 'active')`,
    );
    const targets = ['6289912300001', '6289912300002', '6289912300003'];
    for (const [i, n] of targets.entries()) {
      await db.execute(sql`insert into phone_numbers (number, name) values (${n}, ${`T${i}`})`);
      whatsapp.registered.add(n);
    }
    const started = await wa(member).post('/start-blasting', { whatsappClientId: deviceId, loop: true });
    expect(started.status).toBe(200);
    const sent = () =>
      q<{ target: string; wa_message_id: string; status: string }>(
        sql`select target, wa_message_id, status from message_logs where whatsapp_id = ${accountId} order by id`,
      );
    await until(async () => (await sent()).length === 3, 'three messages logged', 10_000);
    const socket = whatsapp.socket(deviceId);
    expect(socket.sent.map((s) => s.jid).sort()).toEqual(targets.map((n) => `${n}@s.whatsapp.net`));
    expect(socket.sent[0]?.content).toEqual({ text: 'Halo T0' });
    for (const s of socket.sent) socket.status(s.id, proto.WebMessageInfo.Status.DELIVERY_ACK);
    socket.status(socket.sent[0]?.id ?? '', proto.WebMessageInfo.Status.READ);
    await until(async () => (await sent()).every((l) => l.status !== 'sent'), 'the receipts settled', 10_000);
    expect((await sent()).map((l) => [l.target, l.status])).toEqual([
      [targets[0], 'read'],
      [targets[1], 'delivered'],
      [targets[2], 'delivered'],
    ]);
  });

  it('checks numbers: a staff generator on a Baileys account keeps the numbers WhatsApp knows', async () => {
    const deviceId = newDeviceId();
    expect((await wa(staff).post('/new-client', { deviceId })).status).toBe(201);
    expect((await wa(staff).get(`/qr-new-client/${deviceId}`)).status).toBe(200);
    const authenticated = nextEvent(h, `client-${staff.id}`, 'authenticated');
    whatsapp.link(deviceId, '6281377700009', 'Staf');
    const auth = await authenticated;
    const saved = await wa(staff).post('/save', { clientid: deviceId, ...(auth.clientInfo as object) });
    expect(saved.status).toBe(201);
    for (const n of ['6281399900001', '6281399900004']) whatsapp.registered.add(n);
    const gen = apiAs(h, staff, '/api/admin/generator');
    const created = await gen.post('/create', {
      start_number: '6281399900000',
      end_number: '6281399900004',
      whatsapp_id: saved.body.whatsapp.id,
      b_insert: 0,
      interval_min: 0,
      interval_max: 0,
    });
    expect(created.status).toBe(200);
    const id = created.body.generator.id;
    const done = nextEvent(h, `client-${staff.id}`, 'finished', 10_000, (p) => p.generatorId === id);
    expect((await gen.post('/start', { id })).status).toBe(200);
    await done;
    const result = await gen.get(`/download-result/${id}`);
    expect(result.body.list).toEqual([
      { number: '6281399900001', name: '' },
      { number: '6281399900004', name: '' },
    ]);
    // each number was asked of WhatsApp through the account's socket
    expect(whatsapp.socket(deviceId).checked).toEqual([
      '6281399900000@s.whatsapp.net',
      '6281399900001@s.whatsapp.net',
      '6281399900002@s.whatsapp.net',
      '6281399900003@s.whatsapp.net',
      '6281399900004@s.whatsapp.net',
    ]);
  });

  it('comes back on another worker from the database alone: credentials and keys restored, no new login', async () => {
    const before = whatsapp.socketsOf(deviceId).length;
    await h.engine.close();
    await h.restartEngine();
    await until(
      async () => {
        const [a] = await q<{ state: string }>(sql`select state from whatsapp_accounts where id = ${accountId}`);
        return a?.state === 'connected';
      },
      'the account connected on the new worker',
      10_000,
    );
    const sockets = whatsapp.socketsOf(deviceId);
    expect(sockets.length).toBe(before + 1);
    const restored = sockets.at(-1);
    expect(restored?.pairingRequests).toEqual([]);
    expect(restored?.auth.creds.me?.id).toBe('6281377700001:12@s.whatsapp.net');
    const key = await restored?.auth.keys.get('pre-key', ['1']);
    expect(Buffer.from(key?.['1']?.private ?? [])).toEqual(Buffer.alloc(32, 2));
  });
});
