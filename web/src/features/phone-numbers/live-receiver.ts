import type { LiveMessage, PhoneNumberDto } from '@wa/shared';

/** What a live event changes on a target number's row (§4 Phone number rows). */
export interface ReceiverChange {
  id: number;
  patch: Partial<Pick<PhoneNumberDto, 'count_success' | 'count_fail' | 'last_sent' | 'in_use'>>;
  /** the count that moved, highlighted for 1 s */
  flash: 'success' | 'fail' | null;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * Reads count_success, count_fail and in_use events on 'client-admin' (payload.receiver: id,
 * count_success, count_fail, last_sent, in_use); null for anything else.
 */
export function receiverChange(message: LiveMessage): ReceiverChange | null {
  const r = (message.payload?.receiver ?? null) as Record<string, unknown> | null;
  const id = num(r?.id);
  if (!r || id === undefined) return null;
  const patch: ReceiverChange['patch'] = {};
  const inUse = num(r.in_use);
  if (inUse !== undefined) patch.in_use = inUse;
  switch (message.event) {
    case 'count_success': {
      const count = num(r.count_success);
      if (count === undefined) return null;
      patch.count_success = count;
      if (typeof r.last_sent === 'string') patch.last_sent = r.last_sent;
      return { id, patch, flash: 'success' };
    }
    case 'count_fail': {
      const count = num(r.count_fail);
      if (count === undefined) return null;
      patch.count_fail = count;
      if (typeof r.last_sent === 'string') patch.last_sent = r.last_sent;
      return { id, patch, flash: 'fail' };
    }
    case 'in_use':
      return inUse === undefined ? null : { id, patch, flash: null };
    default:
      return null;
  }
}
