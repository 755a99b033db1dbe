import { type Db, rows } from '@wa/core/db/client';
import { sql } from 'drizzle-orm';

const fromNow = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`;

/**
 * A worker's side of the login counts the API checks at new-client: its heartbeat row in
 * whatsapp_workers (alive, and how many unsaved logins it takes) and the whatsapp_logins rows of
 * the logins it runs (claimed, kept alive, ended).
 */
export class LoginsRepo {
  constructor(private readonly db: Db) {}

  /**
   * This worker is alive for `leaseMs` more and takes `maxLogins` unsaved logins; `stalled` of its
   * accounts should be blasting and are not, and it waits for `waitingFor` (GET /api/health reads both).
   */
  async heartbeat(
    workerId: string,
    maxLogins: number,
    leaseMs: number,
    health: { stalled: number; waitingFor: string | null } = { stalled: 0, waitingFor: null },
  ): Promise<void> {
    await this.db.execute(sql`
      insert into whatsapp_workers (worker_id, max_logins, expires_at, stalled, waiting_for)
      values (${workerId}, ${maxLogins}, ${fromNow(leaseMs)}, ${health.stalled}, ${health.waitingFor})
      on conflict (worker_id) do update set max_logins = excluded.max_logins, expires_at = excluded.expires_at,
        stalled = excluded.stalled, waiting_for = excluded.waiting_for`);
  }

  /** A stopping worker no longer counts as a place for logins. */
  async removeWorker(workerId: string): Promise<void> {
    await this.db.execute(sql`delete from whatsapp_workers where worker_id = ${workerId}`);
  }

  /**
   * Takes a login new-client recorded for this worker, unless it is over (removed, or run out while
   * queued) or another worker runs it; it lives `ttlMs` from now.
   */
  async claim(deviceId: string, workerId: string, ttlMs: number): Promise<boolean> {
    const claimed = await rows<{ device_id: string }>(
      this.db,
      sql`update whatsapp_logins
          set worker_id = ${workerId}, expires_at = ${fromNow(ttlMs)}
          where device_id = ${deviceId} and expires_at > now()
            and (worker_id is null or worker_id = ${workerId})
          returning device_id`,
    );
    return claimed.length > 0;
  }

  /** The login showed a sign of life: it lives `ttlMs` from now. */
  async extend(deviceId: string, ttlMs: number): Promise<void> {
    await this.db.execute(sql`update whatsapp_logins set expires_at = ${fromNow(ttlMs)} where device_id = ${deviceId}`);
  }

  /** The login ended unsaved: it stops counting against its user and the workers. */
  async end(deviceId: string): Promise<void> {
    await this.db.execute(sql`delete from whatsapp_logins where device_id = ${deviceId}`);
  }

  /** What workers that died left behind counts for nobody; these rows only tidy up. */
  async purgeExpired(): Promise<void> {
    await this.db.execute(sql`delete from whatsapp_logins where expires_at < now()`);
    await this.db.execute(sql`delete from whatsapp_workers where expires_at < now()`);
  }
}
