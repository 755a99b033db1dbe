import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type FileKind, type FileStore, storedName } from '@wa/core/files/file-store';

/** A name the store did not have is asked again after this long, not at every message of a blast. */
const MISS_TTL_MS = 5_000;

/**
 * The engine's side of the file store (issue 19): template media and validator files come from the
 * store the API put them in, so a worker with its own, empty DATA_DIR sends a template's picture and
 * runs a validator. The drivers send media from a path, so a medium is copied once into this host's
 * cache (`DATA_DIR/cache/files/<kind>/<name>`); a stored file never changes under its name, so a
 * cached copy stays right and later messages read no database.
 */
export class LocalFiles {
  private readonly misses = new Map<string, number>();
  private readonly cacheDir: string;

  constructor(
    private readonly store: FileStore,
    /** DATA_DIR of this worker */
    dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.cacheDir = path.join(dataDir, 'cache', 'files');
  }

  /**
   * The stored file as a file on this host, or null when the store has none by that name (or the
   * name could leave the cache folder). A database error is thrown, for the loop to wait it out.
   */
  async path(kind: FileKind, url: string): Promise<string | null> {
    const name = storedName(url);
    if (!name) return null;
    const file = path.join(this.cacheDir, kind, name);
    if ((await stat(file).catch(() => null))?.isFile()) return file;
    const stored = await this.fetch(kind, name);
    if (!stored) return null;
    await mkdir(path.dirname(file), { recursive: true });
    // written aside and renamed, so a loop on another account never sends half a file
    const part = `${file}.${randomBytes(4).toString('hex')}.part`;
    try {
      await writeFile(part, stored);
      await rename(part, file);
    } finally {
      await rm(part, { force: true });
    }
    return file;
  }

  /** The stored file's bytes (a validator's list is read once per run, so it is not cached), or null. */
  async bytes(kind: FileKind, url: string): Promise<Buffer | null> {
    const name = storedName(url);
    return name ? this.fetch(kind, name) : null;
  }

  private async fetch(kind: FileKind, name: string): Promise<Buffer | null> {
    const key = `${kind}/${name}`;
    const missed = this.misses.get(key);
    if (missed !== undefined && this.now() - missed < MISS_TTL_MS) return null;
    const stored = await this.store.get(kind, name);
    if (stored) {
      this.misses.delete(key);
      return stored.bytes;
    }
    // bounded: names are few (templates, validators), but a long-lived worker should not collect them
    if (this.misses.size >= 1000) this.misses.clear();
    this.misses.set(key, this.now());
    return null;
  }
}
