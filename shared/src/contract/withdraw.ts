import { z } from 'zod';
import { MIN_WITHDRAW, WITHDRAW_STATUSES, type WithdrawStatus } from '../constants';
import { MAX_NOMINAL, optionalUserId } from './bonus';
import { idField, pagedOf, pageQuery, requiredNumber } from './common';

/**
 * A withdrawal request (§3 Withdraw). `User` carries the bank details as they were when the
 * request was made, so a later profile edit never redirects a pending transfer. The details are
 * for the admin who transfers and the member who asked (§2); anyone else gets the request without
 * the `account_*` keys.
 */
export interface WithdrawDto {
  id: number;
  userId: number;
  nominal: number;
  status: WithdrawStatus;
  createdAt: string;
  updatedAt: string;
  User: {
    firstname: string;
    lastname: string;
    account_bank?: string | null;
    account_number?: string | null;
    account_name?: string | null;
  };
}

/** §5 Withdraw and §9: the minimum and the default amount, and the alert below it. */
export const WITHDRAW_MINIMUM_MSG = 'Minimal permintaan penarikan adalah Rp 10.000';

/** §8: the answer's `code` when the bank details are missing; the UI then opens /profile?edit=1. */
export const WITHDRAW_CODE_NO_BANK = 1;

/**
 * POST /admin/withdraw/request: nominal (at least 10000) and the requesting user. Any number below
 * the minimum, a fraction or a large negative one too, says the §5 text first.
 */
export const withdrawRequestBody = z.object({
  nominal: z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: (issue) => (issue.input === undefined ? 'Nominal is required.' : 'Nominal must be a number.') })
      .min(MIN_WITHDRAW, WITHDRAW_MINIMUM_MSG)
      .int('Nominal must be a whole number.')
      .max(MAX_NOMINAL, `Nominal must be at most ${MAX_NOMINAL}.`),
  ),
  userId: requiredNumber('User', 1, 2_147_483_647),
});
export type WithdrawRequestBody = z.input<typeof withdrawRequestBody>;

/** PUT /admin/withdraw/update: Terima (accepted), Tolak (rejected), Batalkan (back to requested). */
export const withdrawUpdateBody = z.object({
  id: idField('id'),
  status: z.enum(WITHDRAW_STATUSES, { error: `status must be one of ${WITHDRAW_STATUSES.join(', ')}` }),
});
export type WithdrawUpdateBody = z.input<typeof withdrawUpdateBody>;

/** GET /admin/withdraw/histories-per-page?page&user_id. */
export const withdrawListQuery = pageQuery.extend({ user_id: optionalUserId });

/** GET /admin/withdraw/total-requested/{userId} and total-accepted/{userId}: whole rupiah. */
export interface WithdrawTotalResponse {
  total: number;
}

/** The success texts of §4 Withdraw status and §8, by the status an update sets. */
export const WITHDRAW_UPDATED: Record<WithdrawStatus, string> = {
  accepted: 'Permintaan withdraw Diterima',
  rejected: 'Ditolak',
  requested: 'Dibatalkan',
};
export const WITHDRAW_REQUESTED_MSG = 'Permintaan withdraw berhasil dikirim, segera akan diproses, silahkan ditunggu.';

/** The schema of WithdrawDto. */
export const withdrawDto = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  nominal: z.number().int(),
  status: z.enum(WITHDRAW_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
  User: z
    .object({
      firstname: z.string(),
      lastname: z.string(),
      account_bank: z.string().nullable().optional(),
      account_number: z.string().nullable().optional(),
      account_name: z.string().nullable().optional(),
    })
    .describe('the member; the bank details (as at the request) only for admins and the member'),
});

/** GET /admin/withdraw/history/{userId} and /histories */
export const withdrawList = z.object({ list: z.array(withdrawDto) });

/** GET /admin/withdraw/histories-per-page */
export const withdrawPage = pagedOf(withdrawDto);

/** POST /admin/withdraw/request (201) and PUT /admin/withdraw/update */
export const savedWithdraw = z.object({ withdraw: withdrawDto, msg: z.string() });

/** The schema of WithdrawTotalResponse. */
export const withdrawTotalResponse = z.object({ total: z.number().int() });
