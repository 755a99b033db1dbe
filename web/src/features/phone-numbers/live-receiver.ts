import { type LiveMessage, PHONE_STATUSES, type PhoneNumberDto, type PhoneStatus } from '@wa/shared';
import type { FlashFlags, LiveChange } from '../../lib/use-live-list';

/** A target number's row: the number and its two count flashes. */
export type PhoneRow = PhoneNumberDto & FlashFlags;

export function toPhoneRow(dto: PhoneNumberDto): PhoneRow {
  return { ...dto, successUpdated: false, failUpdated: false };
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * Reads count_success, count_fail, in_use and update_target events on 'client-admin' (payload.receiver: id,
 * count_success, count_fail, last_sent, in_use) as a change to the number's row (§4 Phone number
 * rows), the moved count flashing; null for anything else.
 */
export function receiverChange(message: LiveMessage): LiveChange<PhoneRow> | null {
  const r = (message.payload?.receiver ?? null) as Record<string, unknown> | null;
  const id = num(r?.id);
  if (!r || id === undefined) return null;
  const patch: Partial<PhoneRow> = {};
  const inUse = num(r.in_use);
  if (inUse !== undefined) patch.in_use = inUse;
  switch (message.event) {
    case 'count_success': {
      const count = num(r.count_success);
      if (count === undefined) return null;
      patch.count_success = count;
      if (typeof r.last_sent === 'string') patch.last_sent = r.last_sent;
      return { key: id, patch: { ...patch, successUpdated: true } };
    }
    case 'count_fail': {
      const count = num(r.count_fail);
      if (count === undefined) return null;
      patch.count_fail = count;
      if (typeof r.last_sent === 'string') patch.last_sent = r.last_sent;
      return { key: id, patch: { ...patch, failUpdated: true } };
    }
    case 'in_use':
      return inUse === undefined ? null : { key: id, patch };
    case 'update_target': {
      // a failure receipt moved its counts, or the target opted out (status)
      const success = num(r.count_success);
      const fail = num(r.count_fail);
      if (success !== undefined) patch.count_success = success;
      if (fail !== undefined) patch.count_fail = fail;
      if (typeof r.status === 'string' && (PHONE_STATUSES as readonly string[]).includes(r.status)) {
        patch.status = r.status as PhoneStatus;
      }
      return Object.keys(patch).length ? { key: id, patch } : null;
    }
    default:
      return null;
  }
}
