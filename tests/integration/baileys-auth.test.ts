import { spawn } from 'node:child_process';
import path from 'node:path';
import { BufferJSON, proto } from '@whiskeysockets/baileys';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, rows } from '../../core/src/db/client';
import { DbAuthKeyStore, storedAuthState } from '../../workers/src/drivers/baileys-auth';
import { DbSessionStore } from '../../workers/src/drivers/session-store';
import { createTestDatabase, testDbKind } from '../support/db';

/**
 * Baileys' auth state in the database (issue 12): what one worker writes, another restores after
 * a failover, byte for byte; concurrent key writes land in the order Baileys made them; a worker
 * killed in the middle of its writes leaves every batch whole.
 */
let database: Database & { url: string | null };
let sessions: DbSessionStore;
let keys: DbAuthKeyStore;

beforeAll(async () => {
  database = await createTestDatabase();
  sessions = new DbSessionStore(database.db);
  keys = new DbAuthKeyStore(database.db);
});
afterAll(async () => {
  await database.close();
});

describe('Baileys auth state in the database', () => {
  it('stores nothing until the device is paired, then restores credentials and keys on another worker', async () => {
    const first = await storedAuthState('dev-a', sessions, keys);
    expect(first.restored).toBe(false);
    await first.saveCreds();
    expect(await sessions.exists('dev-a')).toBe(false);

    const { creds } = first.state;
    Object.assign(creds, {
      me: { id: '6281234567890:4@s.whatsapp.net', name: 'Budi' },
      account: proto.ADVSignedDeviceIdentity.fromObject({ details: Buffer.from([1, 2, 3]) }),
    });
    await first.saveCreds();
    const preKey = { public: Buffer.alloc(32, 7), private: Buffer.alloc(32, 9) };
    const syncKey = proto.Message.AppStateSyncKeyData.fromObject({ keyData: Buffer.from('secret'), timestamp: 5 });
    await first.state.keys.set({ 'pre-key': { '1': preKey, '2': preKey }, 'app-state-sync-key': { AAAA: syncKey } });
    await first.state.keys.set({ 'pre-key': { '2': null } });

    const second = await storedAuthState('dev-a', sessions, keys);
    expect(second.restored).toBe(true);
    expect(second.state.creds.me?.id).toBe('6281234567890:4@s.whatsapp.net');
    expect(Buffer.from(second.state.creds.noiseKey.private)).toEqual(Buffer.from(creds.noiseKey.private));
    expect(second.state.creds.registrationId).toBe(creds.registrationId);
    const got = await second.state.keys.get('pre-key', ['1', '2', '3']);
    expect(Object.keys(got)).toEqual(['1']);
    expect(Buffer.from(got['1']?.private ?? [])).toEqual(preKey.private);
    const sync = await second.state.keys.get('app-state-sync-key', ['AAAA']);
    expect(sync.AAAA).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(sync.AAAA?.keyData ?? [])).toEqual(Buffer.from('secret'));
  });

  it('applies concurrent key writes of one session in the order they were made', async () => {
    const auth = await storedAuthState('dev-b', sessions, keys);
    const writes = Array.from({ length: 60 }, (_, i) =>
      auth.state.keys.set({
        session: { 'same.0': Buffer.from(`v${i}`), [`own.${i}`]: Buffer.from([i]) },
        // every third write deletes the key the write before it made
        ...(i % 3 === 2
          ? { 'sender-key': { [`sk.${i - 1}`]: null } }
          : { 'sender-key': { [`sk.${i}`]: Buffer.from([i]) } }),
      }),
    );
    await Promise.all(writes);
    const same = await auth.state.keys.get('session', ['same.0']);
    expect(Buffer.from(same['same.0'] ?? []).toString()).toBe('v59');
    const own = await auth.state.keys.get(
      'session',
      Array.from({ length: 60 }, (_, i) => `own.${i}`),
    );
    expect(Object.keys(own)).toHaveLength(60);
    const [{ n }] = (await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from whatsapp_session_keys where session_id = 'dev-b' and type = 'sender-key'`,
    )) as [{ n: number }];
    // 40 writes made a sender key, 20 deleted the one made just before them
    expect(n).toBe(20);
  });

  it('deletes the keys with the stored session', async () => {
    const auth = await storedAuthState('dev-c', sessions, keys);
    Object.assign(auth.state.creds, { account: { details: Buffer.from('x') } });
    await auth.saveCreds();
    await auth.state.keys.set({ 'pre-key': { '1': { public: Buffer.alloc(1), private: Buffer.alloc(1) } } });
    await sessions.delete('dev-c');
    expect(await sessions.exists('dev-c')).toBe(false);
    expect(await keys.read('dev-c', 'pre-key', ['1'])).toEqual(new Map());
    const fresh = await storedAuthState('dev-c', sessions, keys);
    expect(fresh.restored).toBe(false);
    // new credentials: a login starts over
    expect(Buffer.from(fresh.state.creds.noiseKey.public)).not.toEqual(Buffer.from(auth.state.creds.noiseKey.public));
  });

  it.runIf(testDbKind() === 'postgres')(
    'a worker killed in the middle of its key writes leaves every batch whole, and the keys restore',
    async () => {
      const root = path.resolve(import.meta.dirname, '../..');
      const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/baileys-key-writer.ts'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: database.url ?? '', SESSION: 'dev-kill', KEYS: '40' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      child.stderr.on('data', (d) => {
        out += d;
      });
      // kill it at a moment that is not between two batches, once it has written a few dozen
      const deadline = Date.now() + 30_000;
      while (!/batch 30\n/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      expect(out).toMatch(/batch 30\n/);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));

      const batches = await rows<{ batch: string; n: number }>(
        database.db,
        sql`select split_part(key_id, '-', 1) as batch, count(*)::int as n from whatsapp_session_keys
            where session_id = 'dev-kill' and type = 'pre-key' group by 1`,
      );
      expect(batches.length).toBeGreaterThanOrEqual(30);
      for (const b of batches) expect(b, `batch ${b.batch}`).toMatchObject({ n: 40 });
      // and what it wrote restores, value for value
      const auth = await storedAuthState('dev-kill', sessions, keys);
      const got = await auth.state.keys.get('pre-key', ['7-3']);
      expect(Buffer.from(got['7-3']?.public ?? [])).toEqual(Buffer.alloc(32, 7));
      expect(Buffer.from(got['7-3']?.private ?? [])).toEqual(Buffer.alloc(32, 3));
      expect(JSON.parse(JSON.stringify(got, BufferJSON.replacer))['7-3'].public.type).toBe('Buffer');
    },
    60_000,
  );
});
