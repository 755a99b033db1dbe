import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadConfigOrExit, resolveJwtSecret } from '@wa/core/config';
import { openDatabase } from '@wa/core/db/client';
import { untilReachable } from '@wa/core/dependencies';
import { DbFileStore } from '@wa/core/files/db-file-store';
import { copyLegacyUploads } from '@wa/core/files/legacy-uploads';
import { createInfra } from '@wa/core/jobs/index';
import { createLogger } from '@wa/core/logger';
import { unhandledRejectionHandler } from '@wa/core/realtime/process-errors';
import type { Webhooks } from '@wa/core/webhooks/webhooks';
import { createApp } from '@wa/server/app';
import { bootstrapInstallation } from '@wa/server/bootstrap';
import { UsersRepo } from '@wa/server/modules/users/users.repo';
import { attachHub } from '@wa/server/realtime/hub';
import type { Registry } from 'prom-client';

/** config → migrate → bootstrap → listen. */
async function main() {
  const config = loadConfigOrExit();
  const log = createLogger(config.logLevel);
  mkdirSync(config.dataDir, { recursive: true });
  // a database still starting (docker compose brings them up together) is waited for, not a crash
  const database = await untilReachable(
    'database',
    () => openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') }),
    log,
  );
  log.info({ database: database.kind }, 'database ready (migrations applied)');
  // the first start's banner goes to stderr: stdout stays JSON log lines, and the password stays out of them
  await bootstrapInstallation(
    database.db,
    {
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
      devEmail: config.devEmail,
      devPassword: config.devPassword,
      url: `http://localhost:${config.port}`,
    },
    { log, print: (text) => process.stderr.write(text) },
  );
  // once per DATA_DIR: uploads an earlier version kept on this host's disk go into the database, where
  // workers on other hosts read them; until then (and after) this host reads them from the disk
  void copyLegacyUploads(new DbFileStore(database.db), config.dataDir, log).catch((err) =>
    log.warn({ err }, 'legacy uploads not copied into the file store; they are served from DATA_DIR meanwhile'),
  );

  const { queue, bus } = createInfra(config.redisUrl, log, config.redisPrefix);
  // without Redis the WhatsApp engine runs in this process; with it, `npm run worker` processes do
  let engine: {
    close(): Promise<void>;
    host: { workerId: string; states(): Record<string, string> };
    webhooks: Webhooks;
    metrics: { registry: Registry };
  } | null = null;
  if (!config.redisUrl) {
    // the composition root is the one place the API process loads the engine (the server package never imports it)
    const { startEngine } = await import('@wa/workers');
    engine = await startEngine({ config, db: database.db, queue, bus, log, exclusive: true });
    await queue.start();
  }
  const jwtSecret = resolveJwtSecret(config);
  const host = engine?.host;
  const app = createApp({
    db: database.db,
    jwtSecret,
    logger: log,
    webDist: config.webDist,
    dataDir: config.dataDir,
    bus,
    // embedded mode: one webhooks directory for the API and the engine
    webhooks: engine?.webhooks,
    engineMetrics: engine?.metrics.registry,
    queue,
    timezone: config.timezone,
    sweepMs: config.engine.sweepMs,
    trustProxy: config.trustProxy,
    importTuning: config.imports,
    defaultEngine: config.waDriver === 'sim' ? null : config.waDriver,
    metricsToken: config.metricsToken,
    // the hub is attached just below, before the first request can arrive
    monitor: {
      engine: host ? () => ({ workerId: host.workerId, sessions: host.states() }) : undefined,
      hub: () => hub.inspect(),
      simulator: config.waDriver === 'sim',
    },
  });
  const server = app.listen(config.port, () => {
    log.info(`WA Blaster dashboard on http://localhost:${config.port}`);
  });
  const usersRepo = new UsersRepo(database.db);
  const hub = attachHub(server, {
    bus,
    jwtSecret,
    authState: (id) => usersRepo.authState(id),
    log,
    origins: config.publicOrigins,
  });
  server.on('error', (err) => {
    log.fatal({ err }, 'could not listen');
    process.exit(1);
  });

  const shutdown = (signal: string) => {
    log.info({ signal }, 'shutting down');
    server.close();
    server.closeAllConnections();
    void (async () => {
      await hub.close().catch(() => {});
      await engine?.close().catch(() => {});
      await queue.close().catch(() => {});
      await bus.close().catch(() => {});
      await database.close().catch(() => {});
      process.exit(0);
    })();
    setTimeout(() => process.exit(0), 8000).unref();
  };
  // a driver's stray promise (whatsapp-web.js pairing, a browser that died) must not end the process
  process.on('unhandledRejection', unhandledRejectionHandler(log, bus));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  // one JSON line with its cause, like every other error of the process
  createLogger().fatal({ err }, 'start failed');
  process.exit(1);
});
