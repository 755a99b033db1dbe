import type { CampaignDto } from '@wa/shared';
import { Badge } from '../../components/badge';
import { STATUS_LABELS, STATUS_TONES, STOP_REASONS } from './campaign-ui';

/** A campaign's status as a coloured label ('Awaiting approval' while pending). */
export function CampaignStatusBadge({ status }: { status: CampaignDto['status'] }) {
  return <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

/** Why a finished campaign stopped, as a sentence; nothing for one that has not. */
export function stopReasonText(c: Pick<CampaignDto, 'status' | 'stop_reason'>): string | null {
  return c.status === 'finished' && c.stop_reason ? `Finished: ${STOP_REASONS[c.stop_reason]}.` : null;
}
