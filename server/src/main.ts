import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createApp } from './app';
import { ensureAdmin, ensureSettings } from './bootstrap';
import { ConfigError, loadConfig, resolveJwtSecret } from './config';
import { openDatabase } from './db/client';
import { createLogger } from './logger';

/** config → migrate → bootstrap → listen. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
  log.info({ database: database.kind }, 'database ready (migrations applied)');
  await ensureSettings(database.db);
  const admin = await ensureAdmin(database.db, config.adminEmail, config.adminPassword);
  if (admin.created && admin.generated) {
    // printed once, on the start that creates the admin
    console.log(
      `\n  First start: an admin account was created.\n    email:    ${admin.email}\n    password: ${admin.password}\n  Keep this password; it is not shown again.\n`,
    );
  } else if (admin.created) {
    log.info({ email: admin.email }, 'admin account created from ADMIN_EMAIL');
  } else if (admin.reason) {
    log.warn(admin.reason);
  }

  const app = createApp({
    db: database.db,
    jwtSecret: resolveJwtSecret(config),
    logger: log,
    webDist: config.webDist,
    dataDir: config.dataDir,
  });
  const server = app.listen(config.port, () => {
    log.info(`WA Blaster dashboard on http://localhost:${config.port}`);
  });
  server.on('error', (err) => {
    log.fatal({ err }, 'could not listen');
    process.exit(1);
  });

  const shutdown = (signal: string) => {
    log.info({ signal }, 'shutting down');
    server.close(() => {
      database.close().finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
