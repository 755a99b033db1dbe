import { OPEN_SESSION_JOB, type OpenSessionJob } from '@wa/core/jobs/names';
import type { JobQueue } from '@wa/core/jobs/queue';
import { LOGIN_TEXTS } from '@wa/shared';
import type { SessionHost } from '../engine/host';

/** how long a full host waits before it hands a login job on, and how often that may happen */
export const LOGIN_HOP_DELAY_MS = 1000;
export const MAX_LOGIN_HOPS = 10;

/**
 * session.open: the login new-client recorded starts here, unless this host runs its maximum of
 * unsaved logins. The API refuses logins up front when every live host is full, so a full host
 * sees a job only in a race or when the queue gave it to the busiest host: it puts the job back for
 * another host (or for itself once a place frees) for about ten seconds, then refuses the login,
 * which frees its place in the counts and tells the create page why.
 */
export async function handleOpenSession(queue: JobQueue, host: SessionHost, job: OpenSessionJob): Promise<void> {
  if ((await host.openLogin(job)) !== 'full') return;
  const hops = (job.hops ?? 0) + 1;
  if (hops > MAX_LOGIN_HOPS) return host.refuseLogin(job, LOGIN_TEXTS.workersBusy);
  await queue.add(
    OPEN_SESSION_JOB,
    { ...job, hops },
    { jobId: `${job.deviceId}-hop${hops}`, delayMs: LOGIN_HOP_DELAY_MS },
  );
}
