import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { collectBytes, FileTooLargeError, mimeOf, STORED_FILE_MAX_BYTES, storedName } from './file-store';
import { copyLegacyUploads, LegacyUploadsFallback, legacyUploadDir } from './legacy-uploads';
import { MemoryFileStore } from './memory-file-store';

let dataDir: string;
const log = createLogger('silent');

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'wa-files-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** Writes a file where a version before issue 19 kept `kind`'s uploads. */
function legacy(kind: 'template' | 'validator', name: string, data: string | Buffer) {
  const dir = legacyUploadDir(dataDir, kind);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, name), data);
}

describe('stored names and sizes', () => {
  it('takes the name out of a column and refuses one that could leave its folder', () => {
    expect(storedName('/uploads/templates/1-ab.png')).toBe('1-ab.png');
    expect(storedName('1-ab.csv')).toBe('1-ab.csv');
    for (const bad of ['', '/uploads/templates/', '..', '.', '.hidden', 'a\\..\\b', 'x\0y']) {
      expect(storedName(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it('keeps the type from the extension', () => {
    expect(mimeOf('a.PNG')).toBe('image/png');
    expect(mimeOf('a.csv')).toBe('text/csv');
    expect(mimeOf('a')).toBe('application/octet-stream');
  });

  it('refuses more than 16 MB, from a buffer or before a stream is read to its end', async () => {
    expect(await collectBytes(Buffer.from('abc'))).toEqual(Buffer.from('abc'));
    await expect(collectBytes(Buffer.alloc(STORED_FILE_MAX_BYTES + 1))).rejects.toBeInstanceOf(FileTooLargeError);
    let read = 0;
    async function* endless() {
      for (;;) {
        read++;
        yield new Uint8Array(1024 * 1024);
      }
    }
    await expect(collectBytes(endless())).rejects.toBeInstanceOf(FileTooLargeError);
    expect(read).toBe(17);
  });
});

describe('the legacy disk fallback', () => {
  it('reads a file the store lacks from DATA_DIR/uploads, the store first, and removes both', async () => {
    const inner = new MemoryFileStore();
    const files = new LegacyUploadsFallback(inner, dataDir);
    legacy('template', 'old.png', 'disk');
    expect((await files.get('template', 'old.png'))?.bytes.toString()).toBe('disk');
    expect((await files.get('template', 'old.png'))?.mimetype).toBe('image/png');
    expect(await files.has('template', 'old.png')).toBe(true);
    // a validator's name does not open a template's file, nor a name with a path
    expect(await files.get('validator', 'old.png')).toBeNull();
    expect(await files.get('template', '../templates/old.png')).toBeNull();
    await inner.put('template', 'old.png', Buffer.from('store'), 'image/png');
    expect((await files.get('template', 'old.png'))?.bytes.toString()).toBe('store');
    await files.remove('template', 'old.png');
    expect(await files.get('template', 'old.png')).toBeNull();
    expect(readdirSync(legacyUploadDir(dataDir, 'template'))).toEqual([]);
  });
});

describe('copyLegacyUploads', () => {
  it('copies every kind once, skips what the store has and what it cannot take, then leaves a mark', async () => {
    const store = new MemoryFileStore();
    legacy('template', '1-a.png', 'picture');
    legacy('template', '.DS_Store', 'junk');
    legacy('validator', '2-b.csv', 'number\n6281\n');
    legacy('validator', 'kept.csv', 'mine');
    await store.put('validator', 'kept.csv', Buffer.from('already'), 'text/csv');
    mkdirSync(path.join(legacyUploadDir(dataDir, 'template'), 'folder'));

    expect(await copyLegacyUploads(store, dataDir, log)).toEqual({ copied: 2, skipped: 2 });
    expect((await store.get('template', '1-a.png'))?.bytes.toString()).toBe('picture');
    expect((await store.get('validator', '2-b.csv'))?.mimetype).toBe('text/csv');
    expect((await store.get('validator', 'kept.csv'))?.bytes.toString()).toBe('already');
    expect(await store.has('template', '.DS_Store')).toBe(false);

    legacy('template', '3-c.png', 'later');
    expect(await copyLegacyUploads(store, dataDir, log)).toBeNull();
    expect(await store.has('template', '3-c.png')).toBe(false);
  });

  it('does nothing and leaves no mark on an installation without uploads', async () => {
    expect(await copyLegacyUploads(new MemoryFileStore(), dataDir, log)).toEqual({ copied: 0, skipped: 0 });
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('leaves no mark when a copy fails, so the next start tries again', async () => {
    const store = new MemoryFileStore();
    legacy('template', '1-a.png', 'picture');
    const failing = Object.assign(Object.create(store) as MemoryFileStore, {
      put: async () => {
        throw new Error('database down');
      },
    });
    expect(await copyLegacyUploads(failing, dataDir, log)).toEqual({ copied: 0, skipped: 0 });
    expect(await copyLegacyUploads(store, dataDir, log)).toEqual({ copied: 1, skipped: 0 });
  });
});
