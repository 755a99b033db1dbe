import { randomBytes } from 'node:crypto';
import type { EventBus } from './bus';

/**
 * Requests from the API to whichever process holds a device's live session, over the event bus
 * (Redis pub/sub across hosts, in-process otherwise). The holder subscribes to the device's
 * channel; a request carries a one-off reply channel.
 */
export const deviceChannel = (deviceId: string) => `engine:device:${deviceId}`;

export type DeviceOp = 'qr' | 'state' | 'send' | 'remove' | 'adopt' | 'activate' | 'reconnect' | 'blast' | 'tool';

export interface DeviceRequest {
  op: DeviceOp;
  replyTo: string;
  args?: Record<string, unknown>;
}

export type DeviceReply = { ok: true; data: Record<string, unknown> } | { ok: false; error: string; status?: number };

export class NoHolderError extends Error {
  constructor(deviceId: string) {
    super(`no worker holds ${deviceId}`);
    this.name = 'NoHolderError';
  }
}

/**
 * Sends `op` to the holder of `deviceId` and waits for its reply. The request is repeated every
 * `retryMs` until a holder answers (a session may still be starting) when `retry` is set; it
 * rejects with NoHolderError after `timeoutMs` without an answer.
 */
export async function callDevice(
  bus: EventBus,
  deviceId: string,
  op: DeviceOp,
  args: Record<string, unknown> = {},
  opts: { timeoutMs?: number; retryMs?: number; retry?: boolean } = {},
): Promise<DeviceReply> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const replyTo = `engine:reply:${randomBytes(8).toString('hex')}`;
  let timer: NodeJS.Timeout | undefined;
  let again: NodeJS.Timeout | undefined;
  let unsubscribe: (() => Promise<void>) | undefined;
  try {
    return await new Promise<DeviceReply>((resolve, reject) => {
      const request: DeviceRequest = { op, replyTo, args };
      bus
        .subscribe(replyTo, (message) => resolve(message as DeviceReply))
        .then((u) => {
          unsubscribe = u;
          const send = () => bus.publish(deviceChannel(deviceId), request).catch(reject);
          void send();
          if (opts.retry) again = setInterval(send, opts.retryMs ?? 1000);
        })
        .catch(reject);
      timer = setTimeout(() => reject(new NoHolderError(deviceId)), timeoutMs);
    });
  } finally {
    clearTimeout(timer);
    clearInterval(again);
    await unsubscribe?.().catch(() => {});
  }
}
