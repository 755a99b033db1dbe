import { z } from 'zod';
import { MESSAGE_LOG_STATUSES, type MessageLogStatus } from '../constants';
import { hasNul, optionalId, pageQuery } from './common';

/** The figures of a report row and of its totals (issue 11 Reports). */
export interface ReportFigures {
  /** messages WhatsApp accepted (delivered and read ones included) */
  sent: number;
  delivered: number;
  read: number;
  /** messages WhatsApp refused, or reported failed */
  failed: number;
  /** targets who asked to stop, by replying to the account */
  optout: number;
  /** the member's fees paid for these messages, whole rupiah */
  income: number;
}

/** One account's day (APP_TIMEZONE). */
export interface ReportRow extends ReportFigures {
  date: string;
  user_id: number;
  whatsapp_id: number;
  /** the account's phone number, null when it was deleted */
  phonenumber: string | null;
  /** the member's name */
  name: string;
}

/** GET /admin/report: a page of rows, newest day first, and the totals of every row of the filter. */
export interface ReportResponse {
  data: ReportRow[];
  totals: ReportFigures;
  meta: { page: number; totalPages: number; total: number; pageSize: number; from: string; to: string };
}

/** The longest range a report covers. */
export const REPORT_MAX_DAYS = 366;

const day = (label: string) =>
  z
    .string({ error: `${label} must be a date like 2026-11-24.` })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date like 2026-11-24.`)
    .refine(
      (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      {
        message: `${label} is not a calendar date.`,
      },
    )
    .optional();

const daysBetween = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/**
 * GET /admin/report and /admin/report/export: `from`/`to` (YYYY-MM-DD in APP_TIMEZONE, both
 * included; default the last 7 days), `user_id`, `whatsapp_id`. A member gets only their own rows.
 */
export const reportQuery = z
  .object({
    from: day('from'),
    to: day('to'),
    user_id: optionalId('user_id'),
    whatsapp_id: optionalId('whatsapp_id'),
    page: pageQuery.shape.page,
  })
  .superRefine((v, ctx) => {
    if (v.from && v.to && v.from > v.to) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must not be after to.' });
    } else if (v.from && v.to && daysBetween(v.from, v.to) >= REPORT_MAX_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: `A report covers at most ${REPORT_MAX_DAYS} days.` });
    }
  });
export type ReportQuery = z.output<typeof reportQuery>;

export const REPORT_FORMATS = ['csv', 'json'] as const;
export const reportExportQuery = reportQuery.and(
  z.object({ format: z.enum(REPORT_FORMATS, { error: "format must be 'csv' or 'json'." }).default('csv') }),
);

/** The columns of report.csv, in order. */
export const REPORT_CSV_COLUMNS = [
  'date',
  'user_id',
  'whatsapp_id',
  'phonenumber',
  'sent',
  'delivered',
  'read',
  'failed',
  'optout',
  'income',
] as const;

/** One message of the log (GET /admin/messagelog/list-per-page). */
export interface MessageLogItem {
  id: number;
  user_id: number;
  /** the member's name */
  name: string;
  whatsapp_id: number | null;
  phonenumber: string | null;
  target: string;
  template_id: number | null;
  /** the start of the template's text (WhatsApp markup), null when the template was deleted */
  template_text: string | null;
  /** WhatsApp's id of the sent message (receipts and revokes name it) */
  wa_message_id: string | null;
  status: MessageLogStatus;
  fee: number;
  /** a fee held until delivery (payout_on 'delivered') */
  fee_due: number;
  error: string | null;
  created_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
}

/** GET /admin/messagelog/list-per-page?page&user_id&whatsapp_id&status&search (search: the target number). */
export const messageLogListQuery = pageQuery.extend({
  user_id: optionalId('user_id'),
  whatsapp_id: optionalId('whatsapp_id'),
  status: z
    .enum(MESSAGE_LOG_STATUSES, { error: `status must be one of ${MESSAGE_LOG_STATUSES.join(', ')}.` })
    .optional(),
  search: z
    .string({ error: 'search must be text.' })
    .trim()
    .max(20, 'search is too long')
    .refine((v) => !hasNul(v) && /^\+?\d*$/.test(v), 'search must be (the start of) a phone number.')
    .optional(),
});
export type MessageLogListQuery = z.output<typeof messageLogListQuery>;

/** One hour of the messages chart. */
export interface HourFigures {
  /** the hour's start, ISO */
  hour: string;
  sent: number;
  delivered: number;
  failed: number;
}

/** GET /admin/report/charts?user_id: what the dashboards draw. */
export interface ChartsResponse {
  /** messages per hour for the last 7 days (by the hour they were sent) */
  hourly: HourFigures[];
  /** delivery rate per account over the last 7 days: delivered / sent */
  accounts: Array<{ whatsapp_id: number; phonenumber: string | null; sent: number; delivered: number; rate: number }>;
  /** income per day over the last 30 days */
  income: Array<{ date: string; income: number }>;
}

export const chartsQuery = z.object({ user_id: optionalId('user_id') });
