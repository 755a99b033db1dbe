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

/** How many skipped rows an import's answer lists; the full list is a download (`skipped_id`). */
export const IMPORT_SKIPPED_SHOWN = 1000;

/** A row a bulk import (phone numbers, proxies) passed over: where it is in the file, and why. */
export const importSkippedRow = z.object({
  line: z.number().int().describe('CSV: the line the row starts on; JSON: the element position (1-based)'),
  number: z.string().describe("the row's key as read (a proxy import repeats it as `value`)"),
  name: z.string(),
  status: z.string().describe('the status of the row holding the key, else as read'),
  id: z.number().int().nullable().describe('the row that already holds this key, when there is one'),
  reason: z.string(),
});
export type ImportSkippedRow = z.infer<typeof importSkippedRow>;

/** The fields every bulk import answers besides its created rows (§3 Import result). */
export const importOutcome = z.object({
  skipped: z.array(importSkippedRow).describe(`the first ${IMPORT_SKIPPED_SHOWN} skipped rows, in file order`),
  total: z.number().int().describe('rows created'),
  totalSkipped: z.number().int(),
  skipped_total: z.number().int().describe('every row skipped (the same as totalSkipped)'),
  skipped_id: z
    .string()
    .nullable()
    .describe('GET …/import/skipped/{skipped_id}: the full skipped list as CSV, for this user, for an hour'),
});

/** POST /admin/phonenumber/import */
export const phoneImportResult = importOutcome.extend({ created: z.array(phoneNumberDto) });

/** GET …/import/skipped/{id}: the one-off id of a skipped list. */
export const skippedListId = z.string().regex(/^[0-9a-f]{32}$/, { error: 'Not a skipped list id.' });

/** The answer to a skipped list that is gone (kept an hour) or is another user's. */
export const SKIPPED_GONE = 'The skipped list is gone (it is kept for one hour) or is not yours.';

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

/** GET /admin/phonenumber/list: every number (streamed). */
export const phoneNumberList = z.object({ list: z.array(phoneNumberDto) });
