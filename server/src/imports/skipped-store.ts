import { randomBytes } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  mkdirSync,
  openSync,
  type ReadStream,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';

/** How long a skipped list stays downloadable, and how many bytes all of them may take. */
export const SKIPPED_KEEP_MS = 60 * 60 * 1000;
export const SKIPPED_MAX_BYTES = 512 * 1024 * 1024;

/**
 * The full skipped lists of recent imports, as CSV files under `dir`, each downloadable once or
 * more by the user who imported for SKIPPED_KEEP_MS, while all of them fit in SKIPPED_MAX_BYTES
 * (the oldest go first). The owner is part of the file name, so another user's id finds nothing.
 * Kept on this API process's disk: behind several API processes the download needs the same one
 * (sticky sessions), and a restart keeps the files until they expire.
 */
export class SkippedStore {
  constructor(
    private readonly dir: string,
    private readonly keepMs = SKIPPED_KEEP_MS,
    private readonly maxBytes = SKIPPED_MAX_BYTES,
  ) {}

  private file(owner: number, id: string) {
    return path.join(this.dir, `${id}.u${owner}.csv`);
  }

  /** Moves the CSV at `from` into the store for `owner`; returns its one-off id. */
  keep(owner: number, from: string): string {
    mkdirSync(this.dir, { recursive: true });
    const id = randomBytes(16).toString('hex');
    renameSync(from, this.file(owner, id));
    this.sweep();
    return id;
  }

  /** The list `id` of `owner`, opened (a sweep meanwhile cannot take it away), or null. */
  open(owner: number, id: string): ReadStream | null {
    this.sweep();
    let fd: number;
    try {
      fd = openSync(this.file(owner, id), 'r');
    } catch {
      return null;
    }
    try {
      return createReadStream('', { fd, autoClose: true });
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** Removes the lists past their time, then the oldest while all of them are over the size cap. */
  sweep(now = Date.now()): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    const live: { file: string; at: number; size: number }[] = [];
    for (const name of names) {
      const file = path.join(this.dir, name);
      try {
        const st = statSync(file);
        if (now - st.mtimeMs > this.keepMs) rmSync(file, { force: true });
        else live.push({ file, at: st.mtimeMs, size: st.size });
      } catch {
        // removed by another sweep meanwhile
      }
    }
    let bytes = live.reduce((n, f) => n + f.size, 0);
    // the newest stays even when it alone is over the cap: it was just promised to its owner
    for (const f of live.sort((a, b) => a.at - b.at).slice(0, -1)) {
      if (bytes <= this.maxBytes) break;
      rmSync(f.file, { force: true });
      bytes -= f.size;
    }
  }
}
