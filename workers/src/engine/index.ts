import { type Config, DEFAULT_TIMEZONE } from '@wa/core/config';
import { DEFAULT_ENGINE_SETTINGS, DEFAULT_SIM_CONFIG } from '@wa/core/config-engine';
import type { Db } from '@wa/core/db/client';
import type { JobQueue } from '@wa/core/jobs/queue';
import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import { DEFAULT_DELIVERY_SETTINGS, requeueOverdue } from '@wa/core/webhooks/deliver';
import { Webhooks } from '@wa/core/webhooks/webhooks';
import { createDriver } from '../drivers/index';
import { DbSessionStore } from '../drivers/session-store';
import type { SessionStore, WhatsAppDriver } from '../drivers/types';
import { registerJobs } from '../jobs/registry';
import { CampaignSupervisor } from './campaign-supervisor';
import type { EngineMetrics } from './engine-metrics';
import { SessionHost } from './host';
import { LedgerFolder } from './ledger-folder';

export interface Engine {
  host: SessionHost;
  driver: WhatsAppDriver;
  jobs: string[];
  webhooks: Webhooks;
  /** the engine's own Prometheus metrics */
  metrics: EngineMetrics;
  /** finishes campaigns at their end or budget and tells their webhooks */
  campaigns: CampaignSupervisor;
  /** folds the ledger's closed periods into the rollups the dashboards read */
  ledger: LedgerFolder;
  close(): Promise<void>;
}

/**
 * The WhatsApp engine of one process: the driver `WA_DRIVER` selects, a session host that holds
 * accounts under leases, and the job handlers on the queue. A worker process runs one; without
 * REDIS_URL the API process runs one itself (embedded mode). The caller starts the queue.
 */
export async function startEngine(opts: {
  /** `engine`, `sim` and `timezone` default to DEFAULT_ENGINE_SETTINGS, DEFAULT_SIM_CONFIG and Asia/Jakarta */
  config: Pick<Config, 'waDriver' | 'dataDir' | 'chromePath'> &
    Partial<Pick<Config, 'engine' | 'sim' | 'timezone' | 'proxyCheck' | 'webhooks'>>;
  db: Db;
  queue: JobQueue;
  bus: EventBus;
  log: Logger;
  leaseMs?: number;
  sweepMs?: number;
  /** the only engine there is (no Redis): take every account at start */
  exclusive?: boolean;
  /** milliseconds in one second of a blast interval (overrides config.engine; tests shorten it) */
  blastSecondMs?: number;
  /** how long an unsaved login lives past its code or scan (overrides config.engine) */
  pendingTtlMs?: number;
  /** unsaved logins this worker runs at once (overrides config.engine) */
  maxPendingLogins?: number;
  /** the watchdog's timeout of a send or check, and the timeouts in a row that rebuild a session (override config.engine) */
  sendTimeoutMs?: number;
  stuckAfter?: number;
  /** the process's webhooks (made here when absent; embedded mode shares the API's) */
  webhooks?: Webhooks;
  /** how often overdue webhook deliveries are queued again (60 s) */
  webhookSweepMs?: number;
  /** how often the campaigns are looked at (CAMPAIGN_TICK_MS), and campaign.progress told at most (tests shorten them) */
  campaignTickMs?: number;
  campaignProgressMs?: number;
  /** how often the ledger is folded (LEDGER_FOLD_MS) */
  ledgerFoldMs?: number;
  /** the driver to use instead of the one WA_DRIVER selects (tests: a real driver over a fake WhatsApp) */
  driver?: (store: SessionStore, db: Db) => WhatsAppDriver;
}): Promise<Engine> {
  const settings = opts.config.engine ?? DEFAULT_ENGINE_SETTINGS;
  const store = new DbSessionStore(opts.db);
  const driver =
    opts.driver?.(store, opts.db) ??
    (await createDriver({ ...opts.config, sim: opts.config.sim ?? DEFAULT_SIM_CONFIG }, store, {
      db: opts.db,
      log: opts.log,
    }));
  const webhooks = opts.webhooks ?? new Webhooks({ db: opts.db, queue: opts.queue, log: opts.log, bus: opts.bus });
  await webhooks.listen();
  const host = new SessionHost({
    webhooks,
    db: opts.db,
    bus: opts.bus,
    driver,
    store,
    log: opts.log,
    leaseMs: opts.leaseMs ?? settings.leaseMs,
    sweepMs: opts.sweepMs ?? settings.sweepMs,
    exclusive: opts.exclusive,
    dataDir: opts.config.dataDir,
    timeZone: opts.config.timezone,
    blastSecondMs: opts.blastSecondMs ?? settings.blastSecondMs,
    pendingTtlMs: opts.pendingTtlMs ?? settings.loginTtlMs,
    maxPendingLogins: opts.maxPendingLogins ?? settings.workerMaxLogins,
    proxyCheck: opts.config.proxyCheck?.url ? { ...opts.config.proxyCheck, url: opts.config.proxyCheck.url } : null,
    sendTimeoutMs: opts.sendTimeoutMs ?? settings.sendTimeoutMs,
    stuckAfter: opts.stuckAfter ?? settings.stuckAfter,
  });
  const jobs = registerJobs(opts.queue, {
    db: opts.db,
    bus: opts.bus,
    log: opts.log,
    host,
    webhookDelivery: opts.config.webhooks ?? DEFAULT_DELIVERY_SETTINGS,
  });
  await host.start();
  // deliveries whose job was lost (a process that died, the in-process queue after a restart)
  const sweep = setInterval(
    () => void requeueOverdue(opts.db, opts.queue).catch((err) => opts.log.warn({ err }, 'webhook sweep failed')),
    opts.webhookSweepMs ?? 60_000,
  );
  sweep.unref();
  const campaigns = new CampaignSupervisor({
    db: opts.db,
    log: opts.log,
    webhooks,
    monitor: host.monitor,
    tickMs: opts.campaignTickMs,
    progressEveryMs: opts.campaignProgressMs,
  });
  campaigns.start();
  const ledger = new LedgerFolder({
    db: opts.db,
    log: opts.log,
    timeZone: opts.config.timezone ?? DEFAULT_TIMEZONE,
    monitor: host.monitor,
    foldMs: opts.ledgerFoldMs,
  });
  ledger.start();
  opts.log.info({ driver: opts.config.waDriver, workerId: host.workerId }, 'engine ready');
  return {
    host,
    driver,
    jobs,
    webhooks,
    metrics: host.metrics,
    campaigns,
    ledger,
    close: async () => {
      clearInterval(sweep);
      campaigns.stop();
      ledger.stop();
      await host.stop();
      await webhooks.close();
      await driver.close();
    },
  };
}
