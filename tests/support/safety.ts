import { sql } from 'drizzle-orm';
import type { Database } from '../../core/src/db/client';

/** A settings update with every §5 field: the account-safety suites add their own fields to it. */
export const SETTINGS_BODY = {
  interval_min: 0,
  interval_max: 0,
  price: 100,
  bank_names: 'BCA',
  colors: '#000000',
  referral_percent: 0,
  info: 'x',
} as const;

/**
 * `n` fresh target numbers `{prefix}{tag}0000…` named `name`; every older number counts as sent
 * first, so a blast started next reaches only these. Returns the numbers.
 */
export async function freshTargets(
  db: Database['db'],
  n: number,
  tag: string,
  opts: { prefix: string; name: string },
): Promise<string[]> {
  await db.execute(sql`update phone_numbers set last_sent = coalesce(last_sent, now()), in_use = 0`);
  const numbers = Array.from({ length: n }, (_, i) => `${opts.prefix}${tag}${String(i).padStart(4, '0')}`);
  for (const number of numbers) {
    await db.execute(sql`insert into phone_numbers (number, name) values (${number}, ${opts.name})`);
  }
  return numbers;
}

/** Blasts at full speed: no interval anywhere, a fee of 100 for everyone, and one active template. */
export async function fullSpeedBlasts(db: Database['db']): Promise<void> {
  await db.execute(sql`insert into settings (id, interval_min, interval_max, price, bank_names, colors)
    values (1, 0, 0, 100, 'BCA', '#000000') on conflict (id) do update set interval_min = 0, interval_max = 0`);
  await db.execute(sql`update users set blast_fee = 100, blast_interval_min = 0, blast_interval_max = 0`);
  await db.execute(sql`insert into message_templates (text, text_wa, status) values ('Halo', 'Halo {name}', 'active')`);
}
