import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryFileStore } from '@wa/core/files/memory-file-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalFiles } from './local-files';

let dataDir: string;
let store: MemoryFileStore;
let reads: number;
let now: number;

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'wa-local-files-'));
  store = new MemoryFileStore();
  reads = 0;
  now = 0;
  const get = store.get.bind(store);
  store.get = (kind, name) => {
    reads++;
    return get(kind, name);
  };
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the engine's copy of stored files", () => {
  it('copies a template medium into its own cache once and reads no database after that', async () => {
    await store.put('template', '1-a.png', Buffer.from('picture'), 'image/png');
    const files = new LocalFiles(store, dataDir, () => now);
    const file = await files.path('template', '/uploads/templates/1-a.png');
    expect(file).toBe(path.join(dataDir, 'cache', 'files', 'template', '1-a.png'));
    expect(readFileSync(file ?? '').toString()).toBe('picture');
    expect(await files.path('template', '/uploads/templates/1-a.png')).toBe(file);
    // another engine on the same DATA_DIR (a restart) finds the copy too
    expect(await new LocalFiles(store, dataDir).path('template', '1-a.png')).toBe(file);
    expect(reads).toBe(1);
    expect(readdirSync(path.dirname(file ?? '')).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('answers null for a name the store lacks, asking again only after a while', async () => {
    const files = new LocalFiles(store, dataDir, () => now);
    expect(await files.path('template', '/uploads/templates/2-b.png')).toBeNull();
    expect(await files.path('template', '/uploads/templates/2-b.png')).toBeNull();
    expect(reads).toBe(1);
    await store.put('template', '2-b.png', Buffer.from('late'), 'image/png');
    now += 5_000;
    expect(await files.path('template', '/uploads/templates/2-b.png')).not.toBeNull();
    expect(reads).toBe(2);
  });

  it('never reads or writes outside its cache for a name with a path in it', async () => {
    const files = new LocalFiles(store, dataDir, () => now);
    for (const bad of ['/uploads/templates/..', '/uploads/templates/', '.secret']) {
      expect(await files.path('template', bad), bad).toBeNull();
    }
    expect(reads).toBe(0);
    expect(existsSync(path.join(dataDir, 'cache'))).toBe(false);
  });

  it("gives a validator file's bytes, and passes a database error on for the loop to wait out", async () => {
    await store.put('validator', '3-c.csv', Buffer.from('number\n6281\n'), 'text/csv');
    const files = new LocalFiles(store, dataDir, () => now);
    expect((await files.bytes('validator', '3-c.csv'))?.toString()).toBe('number\n6281\n');
    expect(await files.bytes('template', '3-c.csv')).toBeNull();
    store.get = async () => {
      throw new Error('connection terminated');
    };
    await expect(files.bytes('validator', '3-c.csv')).rejects.toThrow('connection terminated');
  });
});
