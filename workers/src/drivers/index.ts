import path from 'node:path';
import type { Config } from '@wa/core/config';
import type { SessionStore, WhatsAppDriver } from './types';

/**
 * The driver `WA_DRIVER` selects. whatsapp-web.js (and puppeteer) are loaded only when chosen, so
 * a simulator-only process never pays for them.
 */
export async function createDriver(
  config: Pick<Config, 'waDriver' | 'dataDir' | 'chromePath' | 'sim'>,
  store: SessionStore,
): Promise<WhatsAppDriver> {
  if (config.waDriver === 'sim') {
    const { SimDriver } = await import('./sim');
    return new SimDriver(store, config.sim);
  }
  const { WwebjsDriver } = await import('./wwebjs');
  return new WwebjsDriver({ store, dataDir: path.join(config.dataDir, 'wwebjs'), chromePath: config.chromePath });
}
