import type { Db } from '@wa/core/db/client';
import { rows } from '@wa/core/db/client';
import { sql } from 'drizzle-orm';
import type { SessionStore } from './types';

/** Sessions kept in PostgreSQL (or PGlite): the store any worker restores from (RemoteAuth zips, Baileys credentials). */
export class DbSessionStore implements SessionStore {
  constructor(private readonly db: Db) {}

  async exists(clientId: string): Promise<boolean> {
    const found = await rows<{ one: number }>(
      this.db,
      sql`select 1 as one from whatsapp_sessions where session_id = ${clientId}`,
    );
    return found.length > 0;
  }

  async save(clientId: string, data: Buffer): Promise<void> {
    await this.db.execute(sql`
      insert into whatsapp_sessions (session_id, data, updated_at) values (${clientId}, ${data}, now())
      on conflict (session_id) do update set data = excluded.data, updated_at = now()`);
  }

  async load(clientId: string): Promise<Buffer | null> {
    const found = await rows<{ data: Buffer | Uint8Array }>(
      this.db,
      sql`select data from whatsapp_sessions where session_id = ${clientId}`,
    );
    const data = found[0]?.data;
    if (!data) return null;
    return Buffer.isBuffer(data) ? data : Buffer.from(data);
  }

  /** The session and, for a Baileys session, its signal keys, in one statement. */
  async delete(clientId: string): Promise<void> {
    await this.db.execute(sql`with k as (delete from whatsapp_session_keys where session_id = ${clientId})
      delete from whatsapp_sessions where session_id = ${clientId}`);
  }
}

/** A store in memory, for unit tests of the drivers. */
export class MemorySessionStore implements SessionStore {
  readonly data = new Map<string, Buffer>();
  async exists(clientId: string) {
    return this.data.has(clientId);
  }
  async save(clientId: string, data: Buffer) {
    this.data.set(clientId, Buffer.from(data));
  }
  async load(clientId: string) {
    return this.data.get(clientId) ?? null;
  }
  async delete(clientId: string) {
    this.data.delete(clientId);
  }
}
