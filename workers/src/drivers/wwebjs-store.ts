import { createReadStream } from 'node:fs';
import { mkdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import pkg from 'whatsapp-web.js';
import type { SessionStore } from './types';

const { RemoteAuth } = pkg;

/**
 * Adapter from our `SessionStore` (keyed by clientId, holding the zip bytes) to the store contract
 * of whatsapp-web.js's RemoteAuth (1.34, src/authStrategies/RemoteAuth.js):
 *
 * - RemoteAuth names a session `RemoteAuth-<clientId>` and calls the store with that name.
 * - `save({session})` is called right after RemoteAuth wrote the zip to
 *   `path.join(dataPath, '<session>.zip')` (compressSession); the store must read it from there.
 *   RemoteAuth deletes the zip itself afterwards.
 * - `extract({session, path})` must write the stored zip to `path` (also `<dataPath>/<session>.zip`);
 *   RemoteAuth unzips it into the Chromium profile and deletes it.
 *
 * RemoteAuth resolves `dataPath` itself (default `./.wwebjs_auth/`, i.e. the process cwd), so the
 * driver always passes an absolute `dataPath` inside its own dataDir and gives this adapter the same
 * directory: nothing is written to the cwd.
 */

/** The prefix RemoteAuth puts before the clientId in the session names it hands to the store. */
export const REMOTE_AUTH_PREFIX = 'RemoteAuth-';

/** `RemoteAuth-<clientId>` → `<clientId>` (a name without the prefix is taken as the clientId). */
export function clientIdFromSession(session: string): string {
  return session.startsWith(REMOTE_AUTH_PREFIX) ? session.slice(REMOTE_AUTH_PREFIX.length) : session;
}

/**
 * A zip archive with no entries (just the end-of-central-directory record). `extract` writes it when
 * the session vanished between RemoteAuth's `sessionExists` and `extract` calls (deleted by another
 * worker), so RemoteAuth unpacks an empty profile and the client falls back to a fresh login instead
 * of failing on a missing file.
 */
export const EMPTY_ZIP = Buffer.from(`504b0506${'00'.repeat(18)}`, 'hex');

/** The structural type of whatsapp-web.js's `Store` (index.d.ts), spelled out to keep it explicit. */
export interface RemoteAuthStore {
  sessionExists(options: { session: string }): Promise<boolean>;
  save(options: { session: string }): Promise<void>;
  extract(options: { session: string; path: string }): Promise<void>;
  delete(options: { session: string }): Promise<void>;
}

export class RemoteAuthStoreAdapter implements RemoteAuthStore {
  /**
   * @param store where the sessions live (the database)
   * @param zipDir RemoteAuth's `dataPath`: the directory RemoteAuth writes `<session>.zip` to
   */
  constructor(
    private readonly store: SessionStore,
    readonly zipDir: string,
  ) {}

  /** Where RemoteAuth writes the zip of `session` before calling `save`. */
  zipPath(session: string): string {
    return path.join(this.zipDir, `${session}.zip`);
  }

  async sessionExists({ session }: { session: string }): Promise<boolean> {
    return this.store.exists(clientIdFromSession(session));
  }

  async save({ session }: { session: string }): Promise<void> {
    const data = await readFile(this.zipPath(session));
    await this.store.save(clientIdFromSession(session), data);
  }

  async extract({ session, path: target }: { session: string; path: string }): Promise<void> {
    const data = await this.store.load(clientIdFromSession(session));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, data ?? EMPTY_ZIP);
  }

  async delete({ session }: { session: string }): Promise<void> {
    await this.store.delete(clientIdFromSession(session));
  }
}

/**
 * The unzipper module RemoteAuth itself uses (an optional dependency of whatsapp-web.js, resolved
 * from its package so it is the very same copy), typed to the one call we make.
 */
interface Unzipper {
  Extract(options: { path: string; concurrency?: number }): NodeJS.WritableStream & { promise(): Promise<void> };
}
const requireFromWwebjs = createRequire(createRequire(import.meta.url).resolve('whatsapp-web.js'));
const unzipper = requireFromWwebjs('unzipper') as Unzipper;

/**
 * RemoteAuth (1.34) as this module uses it: whatsapp-web.js's typings declare the strategy hooks as
 * properties (which a subclass cannot override with methods) and omit the internals touched here.
 */
export interface RemoteAuthInstance {
  clientId?: string;
  dataPath: string;
  backupSyncIntervalMs: number;
  userDataDir: string;
  backupSync?: NodeJS.Timeout;
  setup(client: unknown): void;
  beforeBrowserInitialized(): Promise<void>;
  afterAuthReady(): Promise<void>;
  storeRemoteSession(options?: { emit?: boolean }): Promise<void>;
  unCompressSession(compressedSessionPath: string): Promise<void>;
  disconnect(): Promise<void>;
  destroy(): Promise<void>;
  logout(): Promise<void>;
}

export interface RemoteAuthOptions {
  clientId: string;
  store: RemoteAuthStore;
  dataPath: string;
  backupSyncIntervalMs: number;
}

const RemoteAuthBase = RemoteAuth as unknown as new (options: RemoteAuthOptions) => RemoteAuthInstance;

/**
 * whatsapp-web.js's RemoteAuth with three 1.34.7 defects fixed (the unit tests pin each):
 *
 * 1. `unCompressSession` resolves on unzipper's `finish`, which fires when the zip has been parsed
 *    but before the files are written (wwebjs issue #2530, "RemoteAuth failed to load existing
 *    session"): Chromium can start on a half-written profile and WhatsApp asks for a new QR. Here it
 *    waits for `close`, emitted once every file is on disk.
 * 2. After a fresh login, `afterAuthReady` waits 60 s, saves, then starts the periodic backup; if the
 *    client was destroyed during those 60 s, destroy() already ran its clearInterval and the
 *    interval then backs up a dead profile forever (overwriting what another worker saves). Here a
 *    stopped strategy still does that first save (the login would be lost otherwise) but no more.
 * 3. Backup failures (database down…) reject inside a setInterval callback or an un-awaited
 *    afterAuthReady(), i.e. unhandled rejections that end a Node 20 worker. Here they are swallowed:
 *    the next backup (every backupSyncIntervalMs) tries again.
 */
export class SafeRemoteAuth extends RemoteAuthBase {
  private stopped = false;

  override async beforeBrowserInitialized(): Promise<void> {
    this.stopped = false;
    await super.beforeBrowserInitialized();
  }

  override async afterAuthReady(): Promise<void> {
    try {
      await super.afterAuthReady();
    } catch {
      // see 3.
    }
  }

  override async storeRemoteSession(options?: { emit?: boolean }): Promise<void> {
    if (this.stopped && !options?.emit) {
      clearInterval(this.backupSync);
      return;
    }
    try {
      await super.storeRemoteSession(options);
    } catch {
      // see 3.
    }
  }

  override async unCompressSession(compressedSessionPath: string): Promise<void> {
    const extract = unzipper.Extract({ path: this.userDataDir, concurrency: 10 });
    const done = extract.promise();
    const source = createReadStream(compressedSessionPath);
    await new Promise<void>((resolve, reject) => {
      source.once('error', reject);
      extract.once('error', reject);
      source.pipe(extract);
      done.then(resolve, reject);
    });
    await unlink(compressedSessionPath);
  }

  /**
   * whatsapp-web.js calls this on every state it does not accept (CONFLICT, TOS_BLOCK, UNPAIRED…),
   * where RemoteAuth deletes the stored session. Whether it goes is the driver's call: it deletes it
   * on a logout (from the phone or ours) and keeps it on a conflict or a block, so a reconnect can
   * take the account back. Only this client's unpacked profile goes.
   */
  override async disconnect(): Promise<void> {
    this.stopped = true;
    clearInterval(this.backupSync);
    await rm(this.userDataDir, { recursive: true, force: true }).catch(() => {});
  }

  /** A logout ends the stored session too (RemoteAuth's disconnect, which deletes it). */
  override async logout(): Promise<void> {
    this.stopped = true;
    await super.disconnect();
  }

  override async destroy(): Promise<void> {
    this.stopped = true;
    await super.destroy();
  }
}
