import { z } from 'zod';
import { ACTIVE_STATUSES, PHONE_STATUSES } from '../constants';
import { normalizePhone } from '../format';
import { pagedOf, pageQuery, requiredText } from './common';

/** A target phone number as the API returns it (§3 Phone number). */
export const phoneNumberDto = z.object({
  id: z.number().int(),
  number: z.string(),
  name: z.string(),
  status: z.enum(PHONE_STATUSES),
  in_use: z.number().int().describe('1 while a blast is sending to it'),
  count_success: z.number().int(),
  count_fail: z.number().int(),
  last_sent: z.string().nullable().describe('ISO time'),
});
export type PhoneNumberDto = z.infer<typeof phoneNumberDto>;

/** GET /admin/phonenumber/{id} */
export const phoneNumberResponse = z.object({ phoneNumber: phoneNumberDto });

/** POST /admin/phonenumber/save (201) and PUT /admin/phonenumber/{id}: the number as stored. */
export const savedPhoneNumber = z.object({ phoneNumber: phoneNumberDto, msg: z.string() });

/** DELETE /admin/phonenumber/{id} */
export const deletedPhoneNumber = z.object({ id: z.number().int(), msg: z.string() });

/** GET /admin/phonenumber/list-per-page */
export const phoneNumberPage = pagedOf(phoneNumberDto);

/** An import's outcome (§3 Import result): rows added, and rows passed over with the reason. */
export interface ImportSkipped {
  number: string;
  name: string;
  status: string;
  /** the row that already holds this number, when there is one */
  id: number | null;
  reason: string;
}
export interface ImportResult<T> {
  created: T[];
  skipped: ImportSkipped[];
}

const phone = (requiredMsg: string) =>
  requiredText(requiredMsg, 32).transform((v, ctx) => {
    const n = normalizePhone(v);
    if (!n) {
      ctx.addIssue({ code: 'custom', message: `"${v}" is not a phone number.` });
      return z.NEVER;
    }
    return n;
  });

/** POST /admin/phonenumber/save (§5: number and name are required). */
export const savePhoneNumberBody = z.object({
  number: phone('Nomor Telepon is required.'),
  name: requiredText('Nama is required.', 255),
});

/** PUT /admin/phonenumber/{id}: any of number, name and status. */
export const updatePhoneNumberBody = z.object({
  number: phone('Nomor Telepon is required.').optional(),
  name: requiredText('Nama is required.', 255).optional(),
  status: z.enum(ACTIVE_STATUSES, { error: 'Status must be active or nonactive.' }).optional(),
});

/** The export file names and columns of §9. */
export const PHONE_EXPORT = {
  csv: 'phone_numbers.csv',
  json: 'phone_numbers.json',
  columns: ['number', 'name', 'status'],
} as const;

/** GET /admin/phonenumber/list-per-page: the page, a search, and the status filter (opted-out numbers among them). */
export const phoneListQuery = pageQuery.extend({
  status: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(PHONE_STATUSES, { error: `status must be one of ${PHONE_STATUSES.join(', ')}.` }).optional(),
  ),
});

/** An opted-out number stays out: its status cannot be edited back (account safety). */
export const OPTOUT_LOCKED = 'Nomor ini sudah opt-out (minta berhenti) dan tidak dikirimi lagi.';
