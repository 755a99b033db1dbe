import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { BullmqQueue } from '@wa/core/jobs/bullmq-queue';
import type { JobQueue } from '@wa/core/jobs/queue';
import { type Request, type Response, Router } from 'express';

/** Where the dashboard lives (its page, assets and its own API under it). */
export const QUEUE_BOARD_PATH = '/api/dev/queues';

/**
 * The devs' queue dashboard (@bull-board) on the BullMQ queue, read-only: no retry, clean or
 * delete from here, so its page may be opened by a plain link with the session cookie (GETs only,
 * see http/auth.ts). Without Redis the jobs run in the API process and there is no queue to show.
 */
export function queueBoardRoutes(queue: JobQueue): Router {
  if (!(queue instanceof BullmqQueue)) {
    const r = Router();
    r.use((_req: Request, res: Response) => {
      res
        .status(404)
        .json({ msg: 'The queue dashboard needs Redis (REDIS_URL): without it jobs run in the API process.' });
    });
    return r;
  }
  const adapter = new ExpressAdapter();
  adapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: [new BullMQAdapter(queue.bullQueue, { readOnlyMode: true })],
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'WA Blaster jobs' } },
  });
  return adapter.getRouter() as Router;
}
