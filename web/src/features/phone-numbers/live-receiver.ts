import { isToolMessage, type LiveMessage, PHONE_STATUSES, type PhoneNumberDto } from '@wa/shared';
import type { FlashFlags, LiveChange } from '../../lib/use-live-list';

/** A target number's row: the number and its two count flashes. */
export type PhoneRow = PhoneNumberDto & FlashFlags;

export function toPhoneRow(dto: PhoneNumberDto): PhoneRow {
  return { ...dto, successUpdated: false, failUpdated: false };
}

/**
 * Reads count_success, count_fail, in_use and update_target events on 'client-admin' (payload.receiver:
 * the target number's row, whole after a blast message, its changed fields on update_target) as a
 * change to the number's row (§4 Phone number rows), the moved count flashing; null for anything
 * else (a count on the owner's channel, which has no receiver, or a tool's count).
 */
export function receiverChange(message: LiveMessage): LiveChange<PhoneRow> | null {
  if (isToolMessage(message)) return null;
  switch (message.event) {
    case 'count_success': {
      const r = message.payload.receiver;
      if (!r) return null;
      const patch = { count_success: r.count_success, last_sent: r.last_sent, in_use: r.in_use, successUpdated: true };
      return { key: r.id, patch };
    }
    case 'count_fail': {
      const r = message.payload.receiver;
      if (!r) return null;
      return {
        key: r.id,
        patch: { count_fail: r.count_fail, last_sent: r.last_sent, in_use: r.in_use, failUpdated: true },
      };
    }
    case 'in_use': {
      const r = message.payload.receiver;
      return { key: r.id, patch: { in_use: r.in_use } };
    }
    case 'update_target': {
      // a failure receipt moved its counts, or the target opted out (status)
      const { id, status, ...counts } = message.payload.receiver;
      // the sender reads status as the column's text: a value the list does not know is left out
      const known = PHONE_STATUSES.find((s) => s === status);
      const patch: Partial<PhoneRow> = known ? { ...counts, status: known } : counts;
      return Object.keys(patch).length ? { key: id, patch } : null;
    }
    default:
      return null;
  }
}
