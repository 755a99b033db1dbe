import type { Actor } from '@wa/core/actor';
import { AppError } from '@wa/core/errors';
import { canForAnyone } from '@wa/core/policy';
import type { EventBus } from '@wa/core/realtime/bus';
import type { DeviceCommandMap, DeviceOp, DeviceRefusal, DeviceReply } from '@wa/core/realtime/device-commands';
import { type CallOptions, callDevice } from '@wa/core/realtime/rpc';

/** A reconnect or an account that no worker answers for is at most this long away. */
export const HOLDER_TIMEOUT_MS = 5_000;

/** A holder's refusal as the API's answer. */
export const replyError = (r: DeviceRefusal) => new AppError(r.status ?? 400, r.error);

/**
 * Asks the holder of a device on behalf of `actor`: a login in progress answers only its owner,
 * or whoever may log in for anyone (`account.create-login`: admin and dev). The holder checks; the
 * API does not know a login's owner before it is saved.
 */
export function askHolder<Op extends DeviceOp>(
  bus: EventBus,
  actor: Actor,
  deviceId: string,
  op: Op,
  args: DeviceCommandMap[Op]['args'],
  opts: CallOptions,
): Promise<DeviceReply<Op>> {
  const privileged = canForAnyone(actor, 'account.create-login');
  return callDevice(bus, deviceId, op, { ...args, userId: actor.id, privileged }, opts);
}
