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
