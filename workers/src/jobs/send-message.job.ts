import type { Db } from '@wa/core/db/client';
import type { SendMessageJob } from '@wa/core/jobs/names';
import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import { callDevice, NoHolderError } from '@wa/core/realtime/rpc';
import { ensureSend } from '../engine/send.repo';

/** What the job uses: the database its send row is in, the bus to the holder, the log (registry.ts's JobContext has them). */
export interface SendMessagePorts {
  db: Db;
  bus: EventBus;
  log: Logger;
}

/**
 * whatsapp.send-message (send-message/1): any worker takes it and nudges the worker holding the
 * account, whose send loop works through the account's unfinished sends, paced by its interval.
 * The send's row is the truth (the API wrote it; a job alone writes it here), so a job delivered
 * twice nudges twice and sends once. When nobody holds the account right now, whoever restores it
 * goes on with the send.
 */
export async function handleSendMessage(ctx: SendMessagePorts, job: SendMessageJob): Promise<void> {
  const send = await ensureSend(ctx.db, job);
  if (send?.status !== 'sending') return;
  try {
    const r = await callDevice(ctx.bus, send.clientid, 'tool', { kind: 'send', privileged: true }, { timeoutMs: 5000 });
    if (!r.ok) ctx.log.warn({ sendId: job.sendId, error: r.error }, 'the holder did not start the send');
  } catch (err) {
    if (!(err instanceof NoHolderError)) throw err;
    ctx.log.info(
      { sendId: job.sendId, deviceId: send.clientid },
      'no worker holds the account now; its next holder sends',
    );
  }
}
