import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WaEngine } from '@wa/shared';
import type { Express } from 'express';
import { afterAll, beforeAll, expect } from 'vitest';
import { loadConfig } from '../../core/src/config';
import type { Database } from '../../core/src/db/client';
import { InProcessQueue } from '../../core/src/jobs/queue';
import { createLogger } from '../../core/src/logger';
import { InProcessBus } from '../../core/src/realtime/bus';
import { createApp } from '../../server/src/app';
import type { SimDriver } from '../../workers/src/drivers/sim';
import type { SessionStore, WhatsAppDriver } from '../../workers/src/drivers/types';
import { type Engine, startEngine } from '../../workers/src/engine/index';
import { apiAs, type HasApp } from './api';
import { createTestDatabase } from './db';
import { TEST_JWT_SECRET, type TestUser } from './factories';

/** An API on a test database with an in-process engine on the simulator: what the WhatsApp suites share. */
export interface WaHarness {
  database: Database;
  app: Express;
  engine: Engine;
  bus: InProcessBus;
  queue: InProcessQueue;
  /** the API's DATA_DIR (and the engine's, unless `ownEngineDataDir`) */
  dataDir: string;
  /** the engine's DATA_DIR */
  engineDataDir: string;
  /** starts the engine again (after `engine.close()`), as a restarted worker would */
  restartEngine(): Promise<Engine>;
  close(): Promise<void>;
}

export interface WaHarnessOptions {
  /** milliseconds in one interval "second" of a blast or a one-off send */
  blastSecondMs?: number;
  /** how long an unsaved login lives after its last sign of life (the host's default: 120 s) */
  pendingTtlMs?: number;
  /** the host's cap of unsaved logins at once (its default: 20) */
  maxPendingLogins?: number;
  /** when the simulated phone scans the code (SIM_PAIR_DELAY_MS for this harness's driver) */
  pairDelayMs?: number;
  /** a real driver over a fake WhatsApp instead of the simulator (the engine's `driver`) */
  driver?: (store: SessionStore, db: Database['db']) => WhatsAppDriver;
  /** the engine new logins record (WA_DRIVER); none on the simulator */
  defaultEngine?: WaEngine;
  /** the stuck-session watchdog's timeout and limit (WA_SEND_TIMEOUT_MS, WA_STUCK_AFTER) */
  sendTimeoutMs?: number;
  stuckAfter?: number;
  /** webhook deliveries (WEBHOOK_*): tests retry within milliseconds */
  webhooks?: { timeoutMs: number; retryBaseMs: number; retryForMs: number };
  /** how often the engine queues overdue webhook deliveries again */
  webhookSweepMs?: number;
  /** how often the engine looks at the campaigns (CAMPAIGN_TICK_MS), and tells campaign.progress at most */
  campaignTickMs?: number;
  campaignProgressMs?: number;
  /** how often the engine folds the ledger (LEDGER_FOLD_MS) */
  ledgerFoldMs?: number;
  /** how long qr-new-client waits for a code (1.5 s by default, so a code that never comes fails fast) */
  qrTimeoutMs?: number;
  /** the engine gets a DATA_DIR of its own, empty, as a worker on another host has (issue 19) */
  ownEngineDataDir?: boolean;
}

export async function startWaHarness(opts: WaHarnessOptions = {}): Promise<WaHarness> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-engine-'));
  const engineDataDir = opts.ownEngineDataDir ? mkdtempSync(path.join(tmpdir(), 'wa-worker-')) : dataDir;
  const bus = new InProcessBus();
  const queue = new InProcessQueue();
  const log = createLogger('silent');
  const boot = async (exclusive?: boolean) => {
    // the simulator's delays come from the SIM_* variables a suite sets, as an operator's would
    const sim = loadConfig().sim;
    if (opts.pairDelayMs !== undefined) sim.pairDelayMs = opts.pairDelayMs;
    return startEngine({
      config: {
        waDriver: 'sim',
        dataDir: engineDataDir,
        chromePath: '/usr/bin/chromium',
        sim,
        webhooks: opts.webhooks,
      },
      db: database.db,
      queue,
      bus,
      log,
      exclusive,
      blastSecondMs: opts.blastSecondMs,
      pendingTtlMs: opts.pendingTtlMs,
      maxPendingLogins: opts.maxPendingLogins,
      driver: opts.driver,
      sendTimeoutMs: opts.sendTimeoutMs,
      stuckAfter: opts.stuckAfter,
      webhookSweepMs: opts.webhookSweepMs,
      campaignTickMs: opts.campaignTickMs,
      campaignProgressMs: opts.campaignProgressMs,
      ledgerFoldMs: opts.ledgerFoldMs,
    });
  };
  const h: WaHarness = {
    database,
    dataDir,
    engineDataDir,
    bus,
    queue,
    engine: await boot(),
    app: createApp({
      db: database.db,
      jwtSecret: TEST_JWT_SECRET,
      logger: log,
      dataDir,
      bus,
      queue,
      qrTimeoutMs: opts.qrTimeoutMs ?? 1500,
      monitor: { simulator: !opts.driver },
      defaultEngine: opts.defaultEngine ?? null,
    }),
    restartEngine: async () => {
      h.engine = await boot(true);
      return h.engine;
    },
    close: async () => {
      await h.engine.close();
      await queue.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(engineDataDir, { recursive: true, force: true });
    },
  };
  await queue.start();
  return h;
}

/**
 * startWaHarness for the file (or describe) it is called in: started in beforeAll, closed in
 * afterAll. The object is returned at once and filled in by the hook; its restartEngine keeps
 * `engine` on it current.
 */
export function useWaHarness(opts: WaHarnessOptions = {}): WaHarness {
  const h = {} as WaHarness;
  beforeAll(async () => {
    const started = await startWaHarness(opts);
    Object.assign(h, started, {
      restartEngine: async () => {
        h.engine = await started.restartEngine();
        return h.engine;
      },
    });
  });
  afterAll(async () => {
    await h.close?.();
  });
  return h;
}

/** The simulator's knobs a suite turns, by their SIM_* variable. */
const SIM_VARIABLES = {
  pairDelayMs: 'SIM_PAIR_DELAY_MS',
  restoreDelayMs: 'SIM_RESTORE_DELAY_MS',
  sendLatencyMs: 'SIM_SEND_LATENCY_MS',
  sendFailRate: 'SIM_SEND_FAIL_RATE',
  registeredRate: 'SIM_REGISTERED_RATE',
} as const;

/**
 * Sets SIM_* for the test file, as an operator would: a harness's engine reads them when it starts,
 * and `loadConfig().sim` whenever a suite asks what the simulator does.
 */
export function setSimEnv(sim: Partial<Record<keyof typeof SIM_VARIABLES, number>>): void {
  for (const [key, value] of Object.entries(sim) as [keyof typeof SIM_VARIABLES, number][]) {
    process.env[SIM_VARIABLES[key]] = String(value);
  }
}

/** Calls to /api/admin/whatsapp as a user. */
export function waApi(h: HasApp, u: TestUser) {
  return apiAs(h, u, '/api/admin/whatsapp');
}

/** The helpers below bound to one harness (a hook-filled one too), for a suite to destructure once. */
export function waHelpers(h: WaHarness) {
  return {
    wa: (u: TestUser) => waApi(h, u),
    nextEvent: (channel: string, event: string, timeoutMs?: number) => nextEvent(h, channel, event, timeoutMs),
    connect: (u: TestUser, opts: ConnectOptions = {}) => connectAccount(h, u, opts),
    /** the simulated WhatsApp of the harness's current engine */
    sim: () => h.engine.driver as SimDriver,
  };
}

/** The next live event of a kind on a socket channel (through its bus channel), optionally matching. */
export function nextEvent(
  h: WaHarness,
  channel: string,
  event: string,
  timeoutMs = 5000,
  match: (payload: Record<string, unknown>) => boolean = () => true,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let off: (() => Promise<void>) | undefined;
    const timer = setTimeout(() => {
      void off?.();
      reject(new Error(`no ${event} on ${channel} within ${timeoutMs} ms`));
    }, timeoutMs);
    void h.bus
      .subscribe(`ws:${channel}`, (m) => {
        const msg = m as { event: string; payload: Record<string, unknown> };
        if (msg.event !== event || !match(msg.payload)) return;
        clearTimeout(timer);
        void off?.();
        resolve(msg.payload);
      })
      .then((u) => {
        off = u;
      });
  });
}

let seq = 0;
export const newDeviceId = () => `id-${Date.now()}-${(seq++ % 9000) + 100}`;

/** A saved WhatsApp account as the API answers it (the fields the suites use). */
export interface SavedAccount {
  id: number;
  clientid: string;
  phonenumber: string;
}

/** What new-client is given besides the device id: a pairing number, an engine (admin and dev). */
export type ConnectOptions = { phoneNumber?: string; engine?: 'wwebjs' | 'baileys' };

/** Connects an account for `u` the way the create screen does; returns the saved account. */
export async function connectAccount(h: WaHarness, u: TestUser, opts: ConnectOptions = {}) {
  const deviceId = newDeviceId();
  const wa = waApi(h, u);
  const authenticated = nextEvent(h, `client-${u.id}`, 'authenticated');
  const created = await wa.post('/new-client', { deviceId, userId: u.id, ...opts });
  expect(created.status).toBe(201);
  const qr = await wa.get(`/qr-new-client/${deviceId}`);
  expect(qr.status).toBe(200);
  const auth = await authenticated;
  expect(auth.deviceId).toBe(deviceId);
  const info = auth.clientInfo as Record<string, string>;
  const saved = await wa.post('/save', {
    clientid: deviceId,
    ...info,
    proxyId: created.body.proxyId,
    user_id: u.id,
  });
  expect(saved.status).toBe(201);
  return { deviceId, qr: qr.body, info, account: saved.body.whatsapp };
}
