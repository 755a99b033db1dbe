import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { expect } from 'vitest';
import type { Database } from '../../core/src/db/client';
import { InProcessQueue } from '../../core/src/jobs/queue';
import { createLogger } from '../../core/src/logger';
import { InProcessBus } from '../../core/src/realtime/bus';
import { createApp } from '../../server/src/app';
import { type Engine, startEngine } from '../../workers/src/engine/index';
import { bearer } from './api';
import { createTestDatabase } from './db';
import { TEST_JWT_SECRET, type TestUser } from './factories';

/** An API on a test database with an in-process engine on the simulator: what the WhatsApp suites share. */
export interface WaHarness {
  database: Database;
  app: Express;
  engine: Engine;
  bus: InProcessBus;
  queue: InProcessQueue;
  dataDir: string;
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
}

export async function startWaHarness(opts: WaHarnessOptions = {}): Promise<WaHarness> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-engine-'));
  const bus = new InProcessBus();
  const queue = new InProcessQueue();
  const log = createLogger('silent');
  const boot = async (exclusive?: boolean) => {
    // the simulator reads its delays from the environment when the driver is made
    const saved = process.env.SIM_PAIR_DELAY_MS;
    if (opts.pairDelayMs !== undefined) process.env.SIM_PAIR_DELAY_MS = String(opts.pairDelayMs);
    try {
      return await startEngine({
        config: { waDriver: 'sim', dataDir, chromePath: '/usr/bin/chromium' },
        db: database.db,
        queue,
        bus,
        log,
        exclusive,
        blastSecondMs: opts.blastSecondMs,
        pendingTtlMs: opts.pendingTtlMs,
        maxPendingLogins: opts.maxPendingLogins,
      });
    } finally {
      if (opts.pairDelayMs !== undefined) {
        if (saved === undefined) delete process.env.SIM_PAIR_DELAY_MS;
        else process.env.SIM_PAIR_DELAY_MS = saved;
      }
    }
  };
  const h: WaHarness = {
    database,
    dataDir,
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
      qrTimeoutMs: 1500,
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
    },
  };
  await queue.start();
  return h;
}

/** Calls to /api/admin/whatsapp as a user. */
export function waApi(h: WaHarness, u: TestUser) {
  return {
    get: (p: string) => request(h.app).get(`/api/admin/whatsapp${p}`).set(bearer(u.token)),
    post: (p: string, body: object) => request(h.app).post(`/api/admin/whatsapp${p}`).set(bearer(u.token)).send(body),
    put: (p: string, body: object) => request(h.app).put(`/api/admin/whatsapp${p}`).set(bearer(u.token)).send(body),
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

/** Connects an account for `u` the way the create screen does; returns the saved account. */
export async function connectAccount(h: WaHarness, u: TestUser, opts: { phoneNumber?: string } = {}) {
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
