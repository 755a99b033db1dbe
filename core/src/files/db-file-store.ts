import { sql } from 'drizzle-orm';
import { type Db, rows } from '../db/client';
import { collectBytes, type FileKind, type FileStore, type StoredFile } from './file-store';

/**
 * The default FileStore: the `stored_files` table, on PostgreSQL or PGlite, so a worker reads what
 * the API stored with the connection it already has and nothing else to run or back up.
 */
export class DbFileStore implements FileStore {
  constructor(private readonly db: Db) {}

  async put(kind: FileKind, name: string, data: Buffer | AsyncIterable<Uint8Array>, mimetype: string): Promise<void> {
    const bytes = await collectBytes(data);
    await this.db.execute(sql`
      insert into stored_files (kind, name, mimetype, size, bytes)
      values (${kind}, ${name}, ${mimetype}, ${bytes.length}, ${bytes})
      on conflict (kind, name) do update
        set mimetype = excluded.mimetype, size = excluded.size, bytes = excluded.bytes, created_at = now()`);
  }

  async get(kind: FileKind, name: string): Promise<StoredFile | null> {
    const [row] = await rows<{ bytes: Buffer | Uint8Array; mimetype: string; size: number; created_at: Date | string }>(
      this.db,
      sql`select bytes, mimetype, size, created_at from stored_files where kind = ${kind} and name = ${name}`,
    );
    if (!row) return null;
    return {
      // PGlite answers a Uint8Array, node-postgres a Buffer
      bytes: Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes),
      mimetype: row.mimetype,
      size: Number(row.size),
      createdAt: new Date(row.created_at),
    };
  }

  async has(kind: FileKind, name: string): Promise<boolean> {
    const found = await rows<{ one: number }>(
      this.db,
      sql`select 1 as one from stored_files where kind = ${kind} and name = ${name}`,
    );
    return found.length > 0;
  }

  async remove(kind: FileKind, name: string): Promise<void> {
    await this.db.execute(sql`delete from stored_files where kind = ${kind} and name = ${name}`);
  }
}
