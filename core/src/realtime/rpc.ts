import { randomBytes } from 'node:crypto';
import type { EventBus } from './bus';
import type { DeviceArgs, DeviceOp, DeviceReply, DeviceRequest } from './device-commands';

/**
 * Requests from the API to whichever process holds a device's live session, over the event bus
 * (Redis pub/sub across hosts, in-process otherwise). The holder subscribes to the device's
 * channel; a request carries a one-off reply channel.
 */
export const deviceChannel = (deviceId: string) => `engine:device:${deviceId}`;

export class NoHolderError extends Error {
  constructor(deviceId: string) {
    super(`no worker holds ${deviceId}`);
    this.name = 'NoHolderError';
  }
}

/** How long to wait for a holder, and whether to ask again meanwhile. */
export interface CallOptions {
  timeoutMs?: number;
  /** the longest pause between two asks (1000 ms) */
  retryMs?: number;
  retry?: boolean;
}

/**
 * The first pause before asking again. A session that a job is starting right now subscribes to
 * its channel a few milliseconds after the API's first ask (new-client, then qr at once): the
 * asks come 100, 200, 400… ms apart up to `retryMs`, so that answer does not wait a whole second.
 */
const FIRST_RETRY_MS = 100;

/**
 * Sends `op` to the holder of `deviceId` and waits for its reply, both typed by DeviceCommandMap.
 * The request is repeated (at most `retryMs` apart) until a holder answers (a session may still be
 * starting) when `retry` is set; it rejects with NoHolderError after `timeoutMs` without an answer.
 */
export async function callDevice<Op extends DeviceOp>(
  bus: EventBus,
  deviceId: string,
  op: Op,
  args: DeviceArgs<Op>,
  opts: CallOptions = {},
): Promise<DeviceReply<Op>> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const replyTo = `engine:reply:${randomBytes(8).toString('hex')}`;
  let timer: NodeJS.Timeout | undefined;
  let again: NodeJS.Timeout | undefined;
  let unsubscribe: (() => Promise<void>) | undefined;
  try {
    return await new Promise<DeviceReply<Op>>((resolve, reject) => {
      const request: DeviceRequest<Op> = { op, replyTo, args };
      bus
        // the holder answers with the reply type of its handler for `op` (see device-commands.ts)
        .subscribe(replyTo, (message) => resolve(message as DeviceReply<Op>))
        .then((u) => {
          unsubscribe = u;
          const send = () => bus.publish(deviceChannel(deviceId), request).catch(reject);
          void send();
          if (!opts.retry) return;
          const longest = opts.retryMs ?? 1000;
          const askAgain = (pause: number) => {
            again = setTimeout(() => {
              void send();
              askAgain(Math.min(pause * 2, longest));
            }, pause);
          };
          askAgain(Math.min(FIRST_RETRY_MS, longest));
        })
        .catch(reject);
      timer = setTimeout(() => reject(new NoHolderError(deviceId)), timeoutMs);
    });
  } finally {
    clearTimeout(timer);
    clearTimeout(again);
    await unsubscribe?.().catch(() => {});
  }
}
