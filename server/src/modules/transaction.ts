import type { Db } from '@wa/core/db/client';

/**
 * Runs `work` in one database transaction with repositories bound to it. A service that owns a
 * transaction takes one of these from createApp instead of building repositories itself; a unit
 * test passes `(work) => work(inMemoryRepos)`.
 */
export type Transaction<R> = <T>(work: (repos: R) => Promise<T>) => Promise<T>;

/**
 * A Transaction over `db` whose repositories `bind` builds on each transaction's handle (a
 * transaction's handle is a Db: see core/src/db/client.ts).
 */
export function transaction<R>(db: Db, bind: (tx: Db) => R): Transaction<R> {
  return <T>(work: (repos: R) => Promise<T>) => db.transaction((tx) => work(bind(tx)));
}
