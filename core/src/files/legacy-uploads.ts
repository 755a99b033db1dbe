import { createReadStream } from 'node:fs';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import { DbFileStore } from './db-file-store';
import {
  type FileKind,
  type FileStore,
  mimeOf,
  STORED_FILE_MAX_BYTES,
  type StoredFile,
  storedName,
} from './file-store';

const KINDS: readonly FileKind[] = ['template', 'validator'];

/** Where versions before issue 19 kept a kind's uploads: `DATA_DIR/uploads/templates`, `…/validators`. */
export function legacyUploadDir(dataDir: string, kind: FileKind): string {
  return path.join(dataDir, 'uploads', `${kind}s`);
}

/**
 * A FileStore that falls back to the files an earlier version left in `DATA_DIR/uploads` when the
 * store has no row: an installation upgraded in place keeps serving and sending them before (and
 * whether or not) copyLegacyUploads has copied them. Writes go to the store only; a removal removes
 * both copies, so a deleted template's medium does not come back from the disk.
 */
export class LegacyUploadsFallback implements FileStore {
  constructor(
    private readonly inner: FileStore,
    private readonly dataDir: string,
  ) {}

  put(kind: FileKind, name: string, data: Buffer | AsyncIterable<Uint8Array>, mimetype: string): Promise<void> {
    return this.inner.put(kind, name, data, mimetype);
  }

  async get(kind: FileKind, name: string): Promise<StoredFile | null> {
    const stored = await this.inner.get(kind, name);
    if (stored) return stored;
    const file = this.legacyPath(kind, name);
    const info = file ? await stat(file).catch(() => null) : null;
    if (!file || !info?.isFile() || info.size > STORED_FILE_MAX_BYTES) return null;
    const bytes = await readFile(file);
    return { bytes, mimetype: mimeOf(name), size: bytes.length, createdAt: info.mtime };
  }

  async has(kind: FileKind, name: string): Promise<boolean> {
    if (await this.inner.has(kind, name)) return true;
    const file = this.legacyPath(kind, name);
    return Boolean(file && (await stat(file).catch(() => null))?.isFile());
  }

  async remove(kind: FileKind, name: string): Promise<void> {
    await this.inner.remove(kind, name);
    const file = this.legacyPath(kind, name);
    if (file) await rm(file, { force: true });
  }

  private legacyPath(kind: FileKind, name: string): string | null {
    const clean = storedName(name);
    return clean === name ? path.join(legacyUploadDir(this.dataDir, kind), clean) : null;
  }
}

/** The store every process uses unless told otherwise: the database, with the legacy disk fallback of `dataDir`. */
export function defaultFileStore(db: Db, dataDir: string): FileStore {
  return new LegacyUploadsFallback(new DbFileStore(db), dataDir);
}

/** Marks a DATA_DIR whose legacy uploads are in the store, so later starts do not look again. */
const COPIED_MARK = '.copied-to-store';

/**
 * Copies the uploads an earlier version kept in `DATA_DIR/uploads` into the store, once: files the
 * store already has are skipped, and when every file went in a mark is left so that later starts do
 * nothing (a failure leaves no mark, so the next start tries again). The files stay on disk as they
 * were; once copied they are only read when a row goes missing, and an operator may delete them.
 */
export async function copyLegacyUploads(
  store: FileStore,
  dataDir: string,
  log: Logger,
): Promise<{ copied: number; skipped: number } | null> {
  const root = path.join(dataDir, 'uploads');
  if (await stat(path.join(root, COPIED_MARK)).catch(() => null)) return null;
  let copied = 0;
  let skipped = 0;
  let failed = 0;
  for (const kind of KINDS) {
    const dir = legacyUploadDir(dataDir, kind);
    const names = await readdir(dir).catch(() => []);
    for (const entry of names) {
      const name = storedName(entry);
      const file = path.join(dir, entry);
      const info = await stat(file).catch(() => null);
      if (name !== entry || !info?.isFile() || info.size > STORED_FILE_MAX_BYTES) {
        skipped++;
        continue;
      }
      try {
        if (await store.has(kind, name)) continue;
        await store.put(kind, name, createReadStream(file), mimeOf(name));
        copied++;
      } catch (err) {
        failed++;
        log.warn({ err, kind, name }, 'legacy upload not copied into the file store');
      }
    }
  }
  if (failed === 0 && (await stat(root).catch(() => null))?.isDirectory()) {
    await writeFile(path.join(root, COPIED_MARK), `${new Date().toISOString()}\n`);
  }
  if (copied > 0 || skipped > 0) log.info({ copied, skipped, failed }, 'legacy uploads copied into the file store');
  return { copied, skipped };
}
