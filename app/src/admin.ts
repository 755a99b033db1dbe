import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@wa/core/config';
import type { Database } from '@wa/core/db/client';
import { ADMIN_USAGE, parseAdminArgs, UsageError } from '@wa/server/admin-cli';
import type { AdminCommandResult } from '@wa/server/admin-commands';

/**
 * `npm run admin -- <command> <email>` (scripts/admin.mjs): the operator's commands on the server's
 * own configuration (core/src/config.ts). Exit 0 done, 1 refused or failed (one line on stderr),
 * 2 a command line it does not take (with the usage). Only the `password:` line holds a secret.
 */
async function main(argv: string[]): Promise<number> {
  let command: ReturnType<typeof parseAdminArgs>;
  try {
    command = parseAdminArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`npm run admin: ${err.message}\n${ADMIN_USAGE}\n`);
    return 2;
  }
  if (command === 'help') {
    process.stdout.write(`${ADMIN_USAGE}\n`);
    return 0;
  }
  // the database code is loaded only now: a usage error or `help` answers at once
  const { loadConfigOrExit } = await import('@wa/core/config');
  const { CommandRefused, resultLines, runAdminCommand } = await import('@wa/server/admin-commands');
  const config = loadConfigOrExit();
  let result: AdminCommandResult;
  try {
    const database = await open(config);
    try {
      result = await runAdminCommand(database.db, command);
    } finally {
      await database.close();
    }
  } catch (err) {
    if (!(err instanceof CommandRefused)) throw err;
    process.stderr.write(`${command.name}: ${err.message}\n`);
    return 1;
  }
  process.stdout.write(`${resultLines(command.name, result).join('\n')}\n`);
  if (result.tokenVersion !== null) await announceTokensEnded(config, result.userId, result.tokenVersion);
  return 0;
}

/**
 * The server's database: its PostgreSQL, else the embedded one in DATA_DIR/pglite, which must
 * exist (a wrong DATA_DIR would otherwise make an empty database) and must not be open in a
 * server. PGlite takes no lock of its own: two processes on one data directory would corrupt it.
 * While it is open its `postmaster.pid` is there, and a clean close removes it.
 */
async function open(config: Config): Promise<Database> {
  const { openDatabase } = await import('@wa/core/db/client');
  const { CommandRefused } = await import('@wa/server/admin-commands');
  if (config.databaseUrl) {
    try {
      return await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: '' });
    } catch (err) {
      // the host only: the URL may carry a password
      const host = URL.canParse(config.databaseUrl) ? new URL(config.databaseUrl).host : 'its host';
      throw new CommandRefused(`cannot use the PostgreSQL of DATABASE_URL (${host}): ${(err as Error).message}`);
    }
  }
  const dir = path.join(config.dataDir, 'pglite');
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    throw new CommandRefused(
      `no embedded database in ${dir}: set DATA_DIR to the server's data directory, or DATABASE_URL to its PostgreSQL.`,
    );
  }
  const pid = path.join(dir, 'postmaster.pid');
  if (existsSync(pid)) {
    throw new CommandRefused(
      `the embedded database in ${dir} is in use by a running server: stop the server first, then run this again. (If no server runs, the last one did not shut down cleanly: start and stop it once, or delete ${pid}.)`,
    );
  }
  return openDatabase({ databaseUrl: null, pgliteDir: dir });
}

/**
 * With Redis, tells the running API processes that the user's older tokens have ended, as a
 * password change through the API does: their hubs close the live sockets opened with them. The
 * requests of those sessions are refused either way (the version is read per request).
 */
async function announceTokensEnded(config: Config, userId: number, tokenVersion: number): Promise<void> {
  if (!config.redisUrl) return;
  const { RedisBus } = await import('@wa/core/realtime/bus');
  const { publishTokenVersion } = await import('@wa/core/realtime/publish');
  const bus = new RedisBus(config.redisUrl, `${config.redisPrefix}:`);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      publishTokenVersion(bus, userId, tokenVersion),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer in 5 s')), 5000);
      }),
    ]);
  } catch (err) {
    process.stderr.write(
      `warning: Redis did not take the sign-out notice (${(err as Error).message}): a dashboard already open with an old session keeps its live updates until it reloads; its requests are refused already.\n`,
    );
  } finally {
    clearTimeout(timer);
    await bus.close();
  }
}

/**
 * One line for an unexpected failure. A failed query says its driver's reason: drizzle's own
 * message lists the query's parameters, a password's hash among them.
 */
function failure(err: unknown): string {
  const e = err as { message?: unknown; cause?: { message?: unknown } } | null;
  const reason = e?.cause?.message ?? e?.message ?? err;
  return String(reason).split('\n')[0];
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`npm run admin: failed: ${failure(err)}\n`);
    process.exit(1);
  },
);
