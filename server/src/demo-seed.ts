import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Db, openDatabase, rows } from '@wa/core/db/client';
import { sql } from 'drizzle-orm';
import { ensureSettings } from './bootstrap';
import { hashPassword } from './modules/users/passwords';
import { UsersRepo } from './modules/users/users.repo';
import { UsersService } from './modules/users/users.service';

/** The demo users, one per role; their password is printed at start. */
export const DEMO_USERS = [
  { role: 'admin', email: 'admin@demo.local', firstname: 'Admin' },
  { role: 'dev', email: 'dev@demo.local', firstname: 'Dev' },
  { role: 'staff', email: 'staff@demo.local', firstname: 'Staff' },
  { role: 'member', email: 'member@demo.local', firstname: 'Member' },
] as const;
export const DEMO_PASSWORD = 'demo12345';

async function seed(db: Db): Promise<boolean> {
  const [done] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from users where email = 'member@demo.local'`,
  );
  if ((done?.n ?? 0) > 0) return false;
  const repo = new UsersRepo(db);
  const service = new UsersService(repo);
  const ids: Record<string, number> = {};
  for (const u of DEMO_USERS) {
    ids[u.role] = await repo.insert({
      firstname: u.firstname,
      lastname: 'Demo',
      email: u.email,
      passwordHash: await hashPassword(DEMO_PASSWORD),
      role: u.role,
      referralCode: await service.newReferralCode(),
      referrerId: null,
    });
  }
  await db.execute(sql`insert into proxies (value, status) values
    ('http://10.10.0.1:3128', 'active'), ('http://10.10.0.2:3128', 'active'), ('http://10.10.0.3:3128', 'nonactive')`);
  await db.execute(sql`insert into phone_numbers (number, name, status)
    select '62812' || lpad(g::text, 8, '0'), 'Pelanggan ' || g, 'active' from generate_series(1, 200) g`);
  // spintax varies each message; the stop button opts a target out (account safety)
  await db.execute(sql`insert into message_templates (media, text, text_wa, button, status) values
    (null, '<p>{Halo|Hai|Selamat siang} <b>{name}</b>, {promo spesial|penawaran khusus} untuk nomor {phoneNumber}!</p>',
     '{Halo|Hai|Selamat siang} *{name}*, {promo spesial|penawaran khusus} untuk nomor {phoneNumber}!',
     '[{"id":"stop","title":"Berhenti","url":"","type":"stop_button"}]'::jsonb, 'active')`);
  // two accounts of the member, with stored simulator sessions: the engine restores them at start
  const member = ids.member as number;
  for (const [i, phone] of ['6281311110001', '6281311110002'].entries()) {
    const clientid = `id-1760000000000-${100 + i}`;
    await db.execute(sql`insert into whatsapp_accounts (clientid, user_id, phonenumber, pushname, server, serialized, state)
      values (${clientid}, ${member}, ${phone}, ${`Demo ${i + 1}`}, 'c.us', ${`${phone}@c.us`}, 'disconnected')`);
    await db.execute(sql`insert into whatsapp_sessions (session_id, data)
      values (${clientid}, ${Buffer.from(JSON.stringify({ phonenumber: phone, pushname: `Demo ${i + 1}` }))})`);
  }
  // money to look at: bank details, a bonus from the admin and a withdrawal waiting for approval;
  // Start Blast on an account earns the rest (one interval second between messages)
  await db.execute(sql`update users set account_name = 'Member Demo', account_bank = 'BCA', account_number = '1234567890',
    blast_interval_min = 1, blast_interval_max = 3 where id = ${member}`);
  await db.execute(sql`insert into bonuses (user_id, admin_id, nominal, reason)
    values (${member}, ${ids.admin as number}, 50000, 'Bonus selamat datang')`);
  await db.execute(sql`insert into withdrawals (user_id, nominal, status, account_name, account_bank, account_number)
    values (${member}, 20000, 'requested', 'Member Demo', 'BCA', '1234567890')`);
  // a demo is tried at any hour: blasts may send all day (the product's default is 08:00–20:00)
  await db.execute(sql`update settings set send_window_start = '00:00', send_window_end = '24:00' where id = 1`);
  // a generator of the member's first account, ready to start, for admin, staff and dev to look at
  const [first] = await rows<{ id: number }>(
    db,
    sql`select id from whatsapp_accounts where user_id = ${member} order by id limit 1`,
  );
  await db.execute(sql`insert into generators (user_id, whatsapp_id, start_number, end_number, b_insert)
    values (${ids.dev as number}, ${first?.id ?? null}, 6281399990000, 6281399990099, 1)`);
  return true;
}

/** How to watch each account-safety rule act on the demo (docs/PRODUCT.md §4 Account safety). */
const SAFETY_GUIDE = `
  Account safety: Start Blast as member on /whatsapp, then as dev open
  /monitor/remote?id=id-1760000000000-100 and use its Simulator buttons:
    - 'Hapus pesan terakhir': the account is suspended live (rule #1);
    - 'Kirim balasan' STOP from 6281200000001: that number is opted out (Phone Number, Filter Opt-out);
    - 'Gagal kirim 5x': the account pauses with its reason; admin or dev may lift it ('Cabut jeda').
  Each row shows today's messages against the daily cap (30 on an account's first day). The demo
  sends at any hour; set hours in Pengaturan → Keamanan Akun (the default is 08:00–20:00 in
  APP_TIMEZONE) and a blast outside them waits and says until when.
  Receipts: about 1 s after each message the simulator delivers it (95%) and the target reads it
  (60% of those); the dashboards' charts and the counters move live, /report shows each day and
  account and exports it, and Pengaturan → Pembayaran pays members on delivery instead.
`;

/** Seeds the demo data once into the embedded database of `dataDir`. */
export async function seedDemo(dataDir: string): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const database = await openDatabase({ databaseUrl: null, pgliteDir: path.join(dataDir, 'pglite') });
  try {
    await ensureSettings(database.db);
    const seeded = await seed(database.db);
    console.log(
      `\n  WA Blaster demo (WhatsApp simulator)${seeded ? ' — seeded' : ''}\n${DEMO_USERS.map(
        (u) => `    ${u.role.padEnd(7)} ${u.email.padEnd(20)} password: ${DEMO_PASSWORD}`,
      ).join(
        '\n',
      )}\n  A new account connects by itself about 3 s after its QR or pairing code appears.\n${SAFETY_GUIDE}`,
    );
  } finally {
    await database.close();
  }
}
