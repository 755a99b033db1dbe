import { z } from 'zod';
import { MIN_WITHDRAW, WITHDRAW_STATUSES, type WithdrawStatus } from '../constants';
import { MAX_NOMINAL, optionalUserId } from './bonus';
import { idField, pageQuery, requiredNumber } from './common';

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

/** POST /admin/withdraw/request: nominal (at least 10000) and the requesting user. */
export const withdrawRequestBody = z.object({
  nominal: requiredNumber('Nominal', -MAX_NOMINAL, MAX_NOMINAL).refine((n) => n >= MIN_WITHDRAW, WITHDRAW_MINIMUM_MSG),
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
