import { z } from 'zod';
import { MESSAGE_LOG_STATUSES } from '../constants';
import { hasNul, optionalId, pagedOf, pageMetaDto, pageQuery } from './common';

const int = () => z.number().int();

/** The figures of a report row and of its totals (issue 11 Reports). */
export const reportFigures = z.object({
  sent: int().describe('messages WhatsApp accepted (delivered and read ones included)'),
  delivered: int(),
  read: int(),
  failed: int().describe('messages WhatsApp refused, or reported failed'),
  optout: int().describe('targets who asked to stop, by replying to the account'),
  income: int().describe("the member's fees paid for these messages, whole rupiah"),
});
export type ReportFigures = z.infer<typeof reportFigures>;

/** One account's day (APP_TIMEZONE). */
export const reportRow = reportFigures.extend({
  date: z.string().describe('YYYY-MM-DD'),
  user_id: int(),
  whatsapp_id: int(),
  phonenumber: z.string().nullable().describe("the account's phone number, null when it was deleted"),
  name: z.string().describe("the member's name"),
});
export type ReportRow = z.infer<typeof reportRow>;

/** GET /admin/report: a page of rows, newest day first, and the totals of every row of the filter. */
export const reportResponse = z.object({
  data: z.array(reportRow),
  totals: reportFigures,
  meta: pageMetaDto.extend({
    from: z.string().describe('the first day covered, YYYY-MM-DD'),
    to: z.string().describe('the last day covered, YYYY-MM-DD'),
  }),
});
export type ReportResponse = z.infer<typeof reportResponse>;

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
export const messageLogItem = z.object({
  id: int(),
  user_id: int(),
  name: z.string().describe("the member's name"),
  whatsapp_id: int().nullable(),
  phonenumber: z.string().nullable(),
  target: z.string(),
  template_id: int().nullable(),
  template_text: z
    .string()
    .nullable()
    .describe("the start of the template's text (WhatsApp markup), null when the template was deleted"),
  campaign_id: int().nullable().describe('the campaign the message was sent for (issue 22); null: the default pool'),
  variant_id: int().nullable().describe("the campaign's variant it was sent with; null: the default pool"),
  wa_message_id: z.string().nullable().describe("WhatsApp's id of the sent message (receipts and revokes name it)"),
  status: z.enum(MESSAGE_LOG_STATUSES),
  fee: int(),
  fee_due: int().describe("a fee held until delivery (payout_on 'delivered')"),
  error: z.string().nullable(),
  created_at: z.string().describe('ISO time'),
  sent_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  read_at: z.string().nullable(),
});
export type MessageLogItem = z.infer<typeof messageLogItem>;

/** GET /admin/messagelog/list-per-page: 20 a page, newest first. */
export const messageLogPage = pagedOf(messageLogItem);

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
export const hourFigures = z.object({
  hour: z.string().describe("the hour's start, ISO"),
  sent: int(),
  delivered: int(),
  failed: int(),
});
export type HourFigures = z.infer<typeof hourFigures>;

/** GET /admin/report/charts?user_id: what the dashboards draw. */
export const chartsResponse = z.object({
  hourly: z.array(hourFigures).describe('messages per hour for the last 7 days (by the hour they were sent)'),
  accounts: z
    .array(
      z.object({
        whatsapp_id: int(),
        phonenumber: z.string().nullable(),
        sent: int(),
        delivered: int(),
        rate: z.number(),
      }),
    )
    .describe('delivery rate per account over the last 7 days: delivered / sent'),
  income: z.array(z.object({ date: z.string(), income: int() })).describe('income per day over the last 30 days'),
});
export type ChartsResponse = z.infer<typeof chartsResponse>;

export const chartsQuery = z.object({ user_id: optionalId('user_id') });
