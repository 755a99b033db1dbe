import pg from 'pg';

/** What the worker health check found: healthy or not, and one line that says why. */
export interface WorkerHealth {
  healthy: boolean;
  /** the worker ids on this host whose heartbeat is live */
  live: string[];
  message: string;
}

/** A host name as a literal inside a PostgreSQL regular expression. */
function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether a worker on `host` is alive: its heartbeat row in whatsapp_workers has not run out. A
 * worker renews that row every third of WA_LEASE_MS while its engine runs, and the row lasts one
 * WA_LEASE_MS, so a worker that died, hangs or lost the database turns unhealthy within a lease.
 * It is the same row GET /api/health counts as a live worker.
 *
 * A worker's id is `<hostname>-<pid>-<random>` (workers/src/engine/host.ts); in a container the host
 * name is the container's own, so this asks about the worker of the container it runs in, not about
 * the other replicas that share the database.
 */
export async function checkWorkerHealth(opts: {
  databaseUrl: string;
  host: string;
  timeoutMs?: number;
}): Promise<WorkerHealth> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const client = new pg.Client({
    connectionString: opts.databaseUrl,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  // a server that drops the connection later must not crash the check
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ worker_id: string; waiting_for: string | null }>(
      `select worker_id, waiting_for from whatsapp_workers
       where worker_id ~ $1 and expires_at > now() order by worker_id`,
      [`^${escapeRegex(opts.host)}-[0-9]+-[a-z0-9]*$`],
    );
    if (rows.length === 0) {
      return {
        healthy: false,
        live: [],
        message: `unhealthy: no worker on host ${opts.host} has a live heartbeat (dead, hung or not started yet)`,
      };
    }
    const waiting = rows.map((r) => r.waiting_for).filter((w): w is string => w !== null);
    return {
      healthy: true,
      live: rows.map((r) => r.worker_id),
      message: `healthy: worker ${rows.map((r) => r.worker_id).join(', ')} is alive${
        waiting.length ? ` (its loops wait for ${[...new Set(waiting)].join(', ')})` : ''
      }`,
    };
  } catch (err) {
    return {
      healthy: false,
      live: [],
      message: `unhealthy: the database did not answer the heartbeat check (${(err as Error).message})`,
    };
  } finally {
    await client.end().catch(() => {});
  }
}
