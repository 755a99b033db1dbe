import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { createTestDatabase, testDbKind } from '../support/db';
import { until } from '../support/wait';

/**
 * A connection the server ends while a transaction holds it between two statements (a restart, an
 * operator's pg_terminate_backend) fails that transaction, not the process: the error reached a
 * client no one listened to, an uncaught exception (engine-outage saw it once in CI). The pool goes
 * on with fresh connections.
 */
describe.runIf(testDbKind() === 'postgres')('a connection ended inside a transaction', () => {
  it('fails the transaction and leaves the process and the pool working', async () => {
    const database = await createTestDatabase();
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const db = database.db;
      const outcome = await db
        .transaction(async (tx) => {
          const [me] = await rows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
          await rows(db, sql`select pg_terminate_backend(${me.pid})`);
          // the termination reaches this client while no statement of its own is running
          await until(
            async () =>
              (
                await rows<{ n: number }>(
                  db,
                  sql`select count(*)::int as n from pg_stat_activity where pid = ${me.pid}`,
                )
              )[0].n === 0,
            'the backend gone',
          );
          await rows(tx, sql`select 1`);
          return 'committed';
        })
        .catch((err: Error) => `failed: ${err.message}`);
      expect(outcome).toMatch(/^failed: /);
      // the pool serves the next statements on fresh connections
      for (let i = 0; i < 12; i++) {
        expect((await rows<{ x: number }>(db, sql`select 1 as x`))[0].x).toBe(1);
      }
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await database.close();
    }
  });
});
