import { type Db, rows } from '@wa/core/db/client';
import type { SettingDto } from '@wa/shared';
import { sql } from 'drizzle-orm';

const COLS = sql`interval_min, interval_max, price, bank_names, colors, referral_percent, info`;

/** SQL for the one settings row; nothing else. */
export class SettingsRepo {
  constructor(private readonly db: Db) {}

  async get(): Promise<SettingDto> {
    const [r] = await rows<SettingDto>(this.db, sql`select ${COLS} from settings where id = 1`);
    return r;
  }

  async update(v: SettingDto): Promise<SettingDto> {
    const [r] = await rows<SettingDto>(
      this.db,
      sql`update settings set interval_min = ${v.interval_min}, interval_max = ${v.interval_max}, price = ${v.price},
            bank_names = ${v.bank_names}, colors = ${v.colors}, referral_percent = ${v.referral_percent},
            info = ${v.info}, updated_at = now()
          where id = 1 returning ${COLS}`,
    );
    return r;
  }
}
