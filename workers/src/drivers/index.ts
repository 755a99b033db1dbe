import path from 'node:path';
import type { Config } from '@wa/core/config';
import { type Db, rows } from '@wa/core/db/client';
import type { Logger } from '@wa/core/logger';
import { sql } from 'drizzle-orm';
import type { Engine, SessionOptions, SessionStore, WhatsAppDriver, WhatsAppSession } from './types';

/**
 * The driver `WA_DRIVER` selects: the simulator for every account, or the real engines, where each
 * session runs on the engine its account logged in with. Each engine's library (whatsapp-web.js
 * and puppeteer, Baileys) is loaded only when a session needs it, so a process whose accounts all
 * run on one engine never pays for the other.
 */
export async function createDriver(
  config: Pick<Config, 'waDriver' | 'dataDir' | 'chromePath' | 'sim'>,
  store: SessionStore,
  deps: { db?: Db; log?: Logger } = {},
): Promise<WhatsAppDriver> {
  if (config.waDriver === 'sim') {
    const { SimDriver } = await import('./sim');
    return new SimDriver(store, config.sim);
  }
  return new EngineRouter(async (engine) => {
    if (engine === 'baileys') {
      const { BaileysDriver } = await import('./baileys');
      const { DbAuthKeyStore, MemoryAuthKeyStore } = await import('./baileys-auth');
      const { db, log } = deps;
      const keys = db ? new DbAuthKeyStore(db) : new MemoryAuthKeyStore();
      return new BaileysDriver({
        store,
        keys,
        ...(log ? { logger: log } : {}),
        ...(db ? { sentText: (clientId, messageId) => sentText(db, clientId, messageId) } : {}),
      });
    }
    const { WwebjsDriver } = await import('./wwebjs');
    return new WwebjsDriver({ store, dataDir: path.join(config.dataDir, 'wwebjs'), chromePath: config.chromePath });
  });
}

/** A blast message's text from the log, for Baileys to send again to a device that could not decrypt it. */
async function sentText(db: Db, clientId: string, messageId: string): Promise<string | null> {
  const [r] = await rows<{ text: string | null }>(
    db,
    sql`select m.text from message_logs m join whatsapp_accounts w on w.id = m.whatsapp_id
        where m.wa_message_id = ${messageId} and w.clientid = ${clientId} limit 1`,
  );
  return r?.text ?? null;
}

/**
 * Hands each session to its engine's driver, made on first use. A session of an account from
 * before engines were recorded (engine null) is a whatsapp-web.js session.
 */
export class EngineRouter implements WhatsAppDriver {
  readonly name = 'engines' as const;
  private readonly drivers = new Map<Engine, Promise<WhatsAppDriver>>();

  constructor(private readonly make: (engine: Engine) => Promise<WhatsAppDriver>) {}

  createSession(options: SessionOptions): WhatsAppSession {
    const engine = options.engine ?? 'wwebjs';
    let driver = this.drivers.get(engine);
    if (!driver) {
      driver = this.make(engine);
      this.drivers.set(engine, driver);
    }
    return new DeferredSession(
      options.clientId,
      driver.then((d) => d.createSession(options)),
    );
  }

  async close(): Promise<void> {
    const made = await Promise.allSettled(this.drivers.values());
    await Promise.all(made.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
  }
}

/**
 * A session whose driver is still loading (the first session of an engine imports its library):
 * listeners and calls wait for it; start() reports a library that failed to load.
 */
class DeferredSession implements WhatsAppSession {
  constructor(
    readonly clientId: string,
    private readonly inner: Promise<WhatsAppSession>,
  ) {
    inner.catch(() => {});
  }

  on(listener: Parameters<WhatsAppSession['on']>[0]): () => void {
    let off: (() => void) | null = null;
    let cancelled = false;
    void this.inner.then(
      (s) => {
        if (!cancelled) off = s.on(listener);
      },
      () => {},
    );
    return () => {
      cancelled = true;
      off?.();
    };
  }

  async start(): Promise<void> {
    return (await this.inner).start();
  }
  async getState() {
    return (await this.inner).getState();
  }
  async sendText(to: string, text: string) {
    return (await this.inner).sendText(to, text);
  }
  async sendMedia(...args: Parameters<WhatsAppSession['sendMedia']>) {
    return (await this.inner).sendMedia(...args);
  }
  async isRegistered(number: string) {
    return (await this.inner).isRegistered(number);
  }
  async logout() {
    return (await this.inner).logout();
  }
  async destroy() {
    const s = await this.inner.catch(() => null);
    await s?.destroy();
  }
}
