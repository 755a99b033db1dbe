import { type Db, type RawRow, rows } from '@wa/core/db/client';
import type { levels } from '@wa/core/db/schema/index';
import type { LevelDto } from '@wa/shared';
import { sql } from 'drizzle-orm';

const COLS = sql`id, name, blast_fee, requirement_blast`;
/** The columns of COLS: the level as the API answers it (a column of another type would not compile as a LevelDto). */
type LevelRow = Pick<RawRow<typeof levels>, keyof LevelDto>;

/** SQL for levels; nothing else. */
export class LevelsRepo {
  constructor(private readonly db: Db) {}

  async page(limit: number, offset: number): Promise<{ total: number; data: LevelDto[] }> {
    const [c] = await rows<{ n: number }>(this.db, sql`select count(*)::int as n from levels`);
    const data = await rows<LevelRow>(
      this.db,
      sql`select ${COLS} from levels order by requirement_blast, id limit ${limit} offset ${offset}`,
    );
    return { total: Number(c.n), data };
  }

  async find(id: number): Promise<LevelDto | null> {
    const [r] = await rows<LevelRow>(this.db, sql`select ${COLS} from levels where id = ${id}`);
    return r ?? null;
  }

  async insert(v: Omit<LevelDto, 'id'>): Promise<LevelDto> {
    const [r] = await rows<LevelRow>(
      this.db,
      sql`insert into levels (name, blast_fee, requirement_blast)
          values (${v.name}, ${v.blast_fee}, ${v.requirement_blast}) returning ${COLS}`,
    );
    return r;
  }

  async update(id: number, v: Omit<LevelDto, 'id'>): Promise<LevelDto | null> {
    const [r] = await rows<LevelRow>(
      this.db,
      sql`update levels set name = ${v.name}, blast_fee = ${v.blast_fee}, requirement_blast = ${v.requirement_blast},
            updated_at = now() where id = ${id} returning ${COLS}`,
    );
    return r ?? null;
  }

  /** Deletes the level; its members keep their own fee or fall back to the settings price. */
  async delete(id: number): Promise<boolean> {
    return (await rows(this.db, sql`delete from levels where id = ${id} returning id`)).length > 0;
  }
}
