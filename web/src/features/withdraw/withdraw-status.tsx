import type { WithdrawStatus } from '@wa/shared';
import { Badge } from '../../components/badge';

const TONES = { requested: 'warning', accepted: 'success', rejected: 'error' } as const;

/** §4 Withdraw status as a badge: requested yellow, accepted green, rejected red. */
export function WithdrawStatusBadge({ status }: { status: WithdrawStatus }) {
  return <Badge tone={TONES[status] ?? 'neutral'}>{status}</Badge>;
}

/** When a request was made, in the id-ID style. */
export const requestedAt = (iso: string) =>
  new Date(iso).toLocaleString('id-ID', { dateStyle: 'medium', timeStyle: 'short' });
