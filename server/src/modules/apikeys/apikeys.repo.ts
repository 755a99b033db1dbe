import { type Db, type RawRow, rows } from '@wa/core/db/client';
import type { apiKeys, users } from '@wa/core/db/schema/index';
import type { ApiKeyDto } from '@wa/shared';
import { sql } from 'drizzle-orm';

type Key = RawRow<typeof apiKeys>;
type KeyRow = Pick<Key, 'id' | 'name' | 'prefix' | 'read_only' | 'last_used_at' | 'created_at'>;

const iso = (d: string | null) => (d === null ? null : new Date(d).toISOString());
const toDto = (r: KeyRow): ApiKeyDto => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  read_only: r.read_only,
  last_used_at: iso(r.last_used_at),
  created_at: iso(r.created_at) ?? '',
});

/** The key a request came with, and whose it is (the user's role as it is now). */
export interface KeyOwner {
  keyId: number;
  userId: number;
  role: string;
  readOnly: boolean;
}

export class ApiKeysRepo {
  constructor(private readonly db: Db) {}

  /** Adds a key unless the user already holds `cap` live ones (one statement, so two at once cannot pass the cap). */
  async insert(k: {
    userId: number;
    name: string;
    hash: string;
    prefix: string;
    readOnly: boolean;
    cap: number;
  }): Promise<ApiKeyDto | null> {
    const [r] = await rows<KeyRow>(
      this.db,
      sql`insert into api_keys (user_id, name, key_hash, prefix, read_only)
          select ${k.userId}, ${k.name}, ${k.hash}, ${k.prefix}, ${k.readOnly}
          where (select count(*) from api_keys where user_id = ${k.userId} and revoked_at is null) < ${k.cap}
          returning id, name, prefix, read_only, last_used_at, created_at`,
    );
    return r ? toDto(r) : null;
  }

  async list(userId: number): Promise<ApiKeyDto[]> {
    const found = await rows<KeyRow>(
      this.db,
      sql`select id, name, prefix, read_only, last_used_at, created_at from api_keys
          where user_id = ${userId} and revoked_at is null order by created_at desc, id desc`,
    );
    return found.map(toDto);
  }

  /** Revokes one of the user's live keys; false when there is none with that id. */
  async revoke(userId: number, id: number): Promise<boolean> {
    const r = await rows<{ id: number }>(
      this.db,
      sql`update api_keys set revoked_at = now() where id = ${id} and user_id = ${userId} and revoked_at is null returning id`,
    );
    return r.length > 0;
  }

  /** A live key by its hash, with its owner's current role. */
  async owner(hash: string): Promise<KeyOwner | null> {
    const [r] = await rows<Pick<Key, 'id' | 'user_id' | 'read_only'> & Pick<RawRow<typeof users>, 'role'>>(
      this.db,
      sql`select k.id, k.user_id, u.role, k.read_only from api_keys k join users u on u.id = k.user_id
          where k.key_hash = ${hash} and k.revoked_at is null`,
    );
    return r ? { keyId: r.id, userId: r.user_id, role: r.role, readOnly: r.read_only } : null;
  }

  /** The user's stored password hash, for the current password a new key asks for. */
  async passwordHash(userId: number): Promise<string | null> {
    const [r] = await rows<Pick<RawRow<typeof users>, 'password_hash'>>(
      this.db,
      sql`select password_hash from users where id = ${userId}`,
    );
    return r?.password_hash ?? null;
  }

  /** Notes the key's use, at most once a minute (a busy script must not write a row per request). */
  async touch(id: number): Promise<void> {
    await this.db.execute(
      sql`update api_keys set last_used_at = now()
          where id = ${id} and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
    );
  }
}
