import {
  CAMPAIGN_MOVES,
  type CampaignDto,
  type CampaignReportRow,
  type CampaignStatus,
  type CampaignStopReason,
  CLIENT_EDITABLE,
  DELETABLE,
  formatRupiah,
  type Role,
} from '@wa/shared';

/** How often the campaign page asks for its figures again: it is "live" while the campaign sends. */
export const CAMPAIGN_POLL_MS = 5_000;

/** Admins and devs run the operation: they approve, price and top up every client's campaigns. */
export const isOperator = (role: Role | null): boolean => role === 'admin' || role === 'dev';

export const STATUS_LABELS: Record<CampaignStatus, string> = {
  draft: 'Draft',
  pending: 'Awaiting approval',
  active: 'Active',
  paused: 'Paused',
  finished: 'Finished',
};

export const STATUS_TONES: Record<CampaignStatus, 'neutral' | 'warning' | 'success' | 'brand' | 'error'> = {
  draft: 'neutral',
  pending: 'warning',
  active: 'success',
  paused: 'brand',
  finished: 'error',
};

export const STOP_REASONS: Record<CampaignStopReason, string> = {
  budget: 'its budget is used up',
  ended: 'its end time came',
  completed: 'every target has been messaged',
  manual: 'it was finished by hand',
};

/** A move the viewer may make, as a button on the campaign page. */
export interface Move {
  to: CampaignStatus;
  label: string;
  /** asks first: finishing cannot be undone */
  confirm?: string;
  tone: 'primary' | 'outline' | 'danger';
}

const MOVE_LABELS: Partial<Record<`${CampaignStatus}>${CampaignStatus}`, Omit<Move, 'to'>>> = {
  'draft>pending': { label: 'Submit for approval', tone: 'primary' },
  'pending>draft': { label: 'Back to draft', tone: 'outline' },
  'pending>active': { label: 'Approve campaign', tone: 'primary' },
  'active>paused': { label: 'Pause', tone: 'outline' },
  'paused>active': { label: 'Resume', tone: 'primary' },
};

const FINISH: Omit<Move, 'to'> = {
  label: 'Finish',
  tone: 'danger',
  confirm: 'A finished campaign sends nothing more and cannot be started again.',
};

/**
 * The status moves of CAMPAIGN_MOVES the viewer may make: a client never approves (pending →
 * active), and a paused campaign is resumed by whoever paused it, client or operator.
 */
export function movesFor(status: CampaignStatus, operator: boolean): Move[] {
  return CAMPAIGN_MOVES[status]
    .filter((to) => operator || !(status === 'pending' && to === 'active'))
    .map((to) => ({
      to,
      ...(to === 'finished' ? FINISH : (MOVE_LABELS[`${status}>${to}`] ?? { label: to, tone: 'outline' })),
    }));
}

/** Whether the campaign may still be deleted (its messages, once any are sent, are its report). */
export const deletable = (status: CampaignStatus): boolean => DELETABLE.includes(status);

/** Whether the viewer may change the campaign's terms now: a client while draft, pending or paused. */
export const termsEditable = (status: CampaignStatus, operator: boolean): boolean =>
  operator ? status !== 'finished' : CLIENT_EDITABLE.includes(status);

/** One budget's use: what has gone against what was bought. */
export interface BudgetUse {
  key: 'messages' | 'amount';
  label: string;
  used: string;
  limit: string;
  /** 0..100 */
  percent: number;
}

const percentOf = (used: number, limit: number) => Math.min(100, Math.max(0, Math.round((used / limit) * 100)));

/** The campaign's budgets in use: messages sent against budget_messages, rupiah spent against budget_amount. */
export function budgetUse(c: Pick<CampaignDto, 'sent' | 'spent' | 'budget_messages' | 'budget_amount'>): BudgetUse[] {
  const out: BudgetUse[] = [];
  if (c.budget_messages) {
    out.push({
      key: 'messages',
      label: 'Messages',
      used: count(c.sent),
      limit: count(c.budget_messages),
      percent: percentOf(c.sent, c.budget_messages),
    });
  }
  if (c.budget_amount) {
    out.push({
      key: 'amount',
      label: 'Budget',
      used: formatRupiah(c.spent),
      limit: formatRupiah(c.budget_amount),
      percent: percentOf(c.spent, c.budget_amount),
    });
  }
  return out;
}

export const count = (n: number): string => n.toLocaleString('id-ID');

/** The report's figure columns; `operator` ones (the members' fees, the margin) are the operator's business. */
export const REPORT_FIGURES: {
  key: Exclude<keyof CampaignReportRow, 'day' | 'variant_id'>;
  header: string;
  money?: boolean;
  operator?: boolean;
}[] = [
  { key: 'sent', header: 'Sent' },
  { key: 'delivered', header: 'Delivered' },
  { key: 'read', header: 'Read' },
  { key: 'failed', header: 'Failed' },
  { key: 'unknown', header: 'Unknown' },
  { key: 'replied', header: 'Replied' },
  { key: 'optout', header: 'Opt-out' },
  { key: 'cost', header: 'Cost', money: true },
  { key: 'fees', header: 'Fees', money: true, operator: true },
  { key: 'margin', header: 'Margin', money: true, operator: true },
];

/** The report's figures the viewer sees: a client never the fees and the margin. */
export const reportFigures = (operator: boolean) => REPORT_FIGURES.filter((f) => operator || !f.operator);

/** A report day (YYYY-MM-DD) as the id-ID date, e.g. "3 Des 2026". */
export const dayLabel = (day: string): string =>
  new Date(`${day}T00:00:00`).toLocaleDateString('id-ID', { day: 'numeric', month: 'short', year: 'numeric' });

/** An ISO time as the id-ID date and time, '-' when there is none. */
export const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString('id-ID') : '-');

/** A variant's name in the report and the replies: "#id", or "-" for a send whose variant is not known. */
export const variantLabel = (id: number | null): string => (id === null ? '-' : `#${id}`);

/** The days of the report with their sent, delivered and replied figures summed over the variants. */
export function perDay(rows: readonly CampaignReportRow[]): {
  days: string[];
  sent: number[];
  delivered: number[];
  replied: number[];
} {
  const byDay = new Map<string, { sent: number; delivered: number; replied: number }>();
  for (const r of rows) {
    const d = byDay.get(r.day) ?? { sent: 0, delivered: 0, replied: 0 };
    d.sent += r.sent;
    d.delivered += r.delivered;
    d.replied += r.replied;
    byDay.set(r.day, d);
  }
  const days = [...byDay.keys()].sort();
  const pick = (k: 'sent' | 'delivered' | 'replied') => days.map((d) => byDay.get(d)?.[k] ?? 0);
  return { days, sent: pick('sent'), delivered: pick('delivered'), replied: pick('replied') };
}

/** An ISO time as a datetime-local input's value (the browser's local time), '' for none. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
