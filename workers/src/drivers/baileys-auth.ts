import type { Db } from '@wa/core/db/client';
import { rows } from '@wa/core/db/client';
import type {
  AuthenticationCreds,
  AuthenticationState,
  SignalDataSet,
  SignalDataTypeMap,
} from '@whiskeysockets/baileys';
import { BufferJSON, initAuthCreds, proto } from '@whiskeysockets/baileys';
import { sql } from 'drizzle-orm';
import type { SessionStore } from './types';

/** One signal key as stored: its value as JSON (BufferJSON), or null to delete it. */
export interface KeyChange {
  type: string;
  id: string;
  value: string | null;
}

/**
 * Where a Baileys session's signal keys live. A batch of changes is applied whole or not at all,
 * so a worker killed mid-write never leaves half a batch (a pre-key without its session, …).
 */
export interface AuthKeyStore {
  read(clientId: string, type: string, ids: string[]): Promise<Map<string, string>>;
  write(clientId: string, changes: KeyChange[]): Promise<void>;
  clear(clientId: string): Promise<void>;
}

/** Keys in PostgreSQL (or PGlite): `whatsapp_session_keys`. */
export class DbAuthKeyStore implements AuthKeyStore {
  constructor(private readonly db: Db) {}

  async read(clientId: string, type: string, ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const found = await rows<{ key_id: string; value: string }>(
      this.db,
      sql`select key_id, value from whatsapp_session_keys
          where session_id = ${clientId} and type = ${type}
            and key_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`,
    );
    return new Map(found.map((r) => [r.key_id, r.value]));
  }

  /** One statement: the deletions and the upserts of the batch commit together. */
  async write(clientId: string, changes: KeyChange[]): Promise<void> {
    if (!changes.length) return;
    // the last change of a key wins, as if applied in order
    const last = new Map<string, KeyChange>();
    for (const c of changes) last.set(`${c.type}\u0000${c.id}`, c);
    const batch = JSON.stringify([...last.values()].map((c) => ({ t: c.type, k: c.id, v: c.value })));
    await this.db.execute(
      sql`with c as (
            select * from jsonb_to_recordset(${batch}::jsonb) as c(t text, k text, v text)
          ), d as (
            delete from whatsapp_session_keys s using c
            where c.v is null and s.session_id = ${clientId} and s.type = c.t and s.key_id = c.k
          )
          insert into whatsapp_session_keys (session_id, type, key_id, value)
          select ${clientId}, c.t, c.k, c.v from c where c.v is not null
          on conflict (session_id, type, key_id) do update set value = excluded.value`,
    );
  }

  async clear(clientId: string): Promise<void> {
    await this.db.execute(sql`delete from whatsapp_session_keys where session_id = ${clientId}`);
  }
}

/** Keys in memory, for unit tests and the memory benchmark. */
export class MemoryAuthKeyStore implements AuthKeyStore {
  readonly data = new Map<string, Map<string, string>>();

  async read(clientId: string, type: string, ids: string[]): Promise<Map<string, string>> {
    const keys = this.data.get(clientId);
    const out = new Map<string, string>();
    for (const id of ids) {
      const v = keys?.get(`${type}/${id}`);
      if (v !== undefined) out.set(id, v);
    }
    return out;
  }

  async write(clientId: string, changes: KeyChange[]): Promise<void> {
    let keys = this.data.get(clientId);
    if (!keys) {
      keys = new Map();
      this.data.set(clientId, keys);
    }
    for (const c of changes) {
      if (c.value === null) keys.delete(`${c.type}/${c.id}`);
      else keys.set(`${c.type}/${c.id}`, c.value);
    }
  }

  async clear(clientId: string): Promise<void> {
    this.data.delete(clientId);
  }
}

/**
 * Runs the writes and reads of one account one after another, in the order Baileys asked for
 * them: two key batches written concurrently could otherwise land in the other order, and a read
 * could miss a batch still being written (Baileys' own file store locks for the same reason).
 */
class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.tail.then(task, task);
    this.tail = next.catch(() => {});
    return next;
  }
}

export interface StoredAuthState {
  state: AuthenticationState;
  /** whether the credentials had logged in when they were loaded (a restore, not a new login) */
  restored: boolean;
  /** writes the credentials once they have logged in (before that, nothing is stored) */
  saveCreds(): Promise<void>;
}

/**
 * A Baileys auth state kept in PostgreSQL: the credentials in the session store (the row whose
 * existence says "this account can be restored", as for whatsapp-web.js), the signal keys in the
 * key store. Nothing is cached in memory beyond the credentials object Baileys itself holds.
 */
export async function storedAuthState(
  clientId: string,
  sessions: SessionStore,
  keys: AuthKeyStore,
): Promise<StoredAuthState> {
  const queue = new SerialQueue();
  const stored = await sessions.load(clientId);
  const creds: AuthenticationCreds = stored ? JSON.parse(stored.toString('utf8'), BufferJSON.reviver) : initAuthCreds();
  const state: AuthenticationState = {
    creds,
    keys: {
      get: (type, ids) => queue.run(() => readKeys(keys, clientId, type, ids)),
      set: (data) => queue.run(() => keys.write(clientId, keyChanges(data))),
      clear: () => queue.run(() => keys.clear(clientId)),
    },
  };
  return {
    state,
    restored: isLoggedIn(creds),
    saveCreds: () =>
      queue.run(async () => {
        // a login in progress (a QR shown, a pairing code asked for) is not a session to restore
        if (!isLoggedIn(creds)) return;
        await sessions.save(clientId, Buffer.from(JSON.stringify(creds, BufferJSON.replacer), 'utf8'));
      }),
  };
}

/** Logged in: WhatsApp signed this device's identity (pair-success); a pairing code alone sets `me`, not this. */
export function isLoggedIn(creds: AuthenticationCreds): boolean {
  return Boolean(creds.account);
}

async function readKeys<T extends keyof SignalDataTypeMap>(
  keys: AuthKeyStore,
  clientId: string,
  type: T,
  ids: string[],
): Promise<{ [id: string]: SignalDataTypeMap[T] }> {
  const found = await keys.read(clientId, type, ids);
  const out: { [id: string]: SignalDataTypeMap[T] } = {};
  for (const [id, json] of found) {
    let value = JSON.parse(json, BufferJSON.reviver);
    // Baileys reads this one as its protobuf class (as its own file store does)
    if (type === 'app-state-sync-key') value = proto.Message.AppStateSyncKeyData.fromObject(value);
    out[id] = value;
  }
  return out;
}

function keyChanges(data: SignalDataSet): KeyChange[] {
  const changes: KeyChange[] = [];
  for (const [type, entries] of Object.entries(data)) {
    for (const [id, value] of Object.entries(entries ?? {})) {
      changes.push({ type, id, value: value ? JSON.stringify(value, BufferJSON.replacer) : null });
    }
  }
  return changes;
}
