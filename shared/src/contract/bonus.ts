import { z } from 'zod';
import { optionalId, pagedOf, pageQuery, requiredNumber, requiredText } from './common';

/** Largest bonus or withdrawal, whole rupiah: far above any real one, well inside a safe integer. */
export const MAX_NOMINAL = 1_000_000_000_000;

/** A bonus given by an admin (§3 Bonus); `User` is the member who received it. */
export interface BonusDto {
  id: number;
  userId: number;
  adminId: number | null;
  nominal: number;
  reason: string;
  createdAt: string;
  User: { firstname: string; lastname: string };
}

/** `?user_id=`: a positive user id, or absent (an empty value counts as absent). */
export const optionalUserId = optionalId('user_id');

/**
 * POST /admin/bonus/create (§5 Bonus: nominal a required number; reason and member required).
 * `adminId` is part of the spec's payload but the server takes the giver from the token.
 */
export const createBonusBody = z.object({
  userId: requiredNumber('Member', 1, 2_147_483_647),
  nominal: requiredNumber('Nominal', 1, MAX_NOMINAL),
  reason: requiredText('Keterangan is required.', 500),
  adminId: z.unknown().optional(),
});
export type CreateBonusBody = z.input<typeof createBonusBody>;

/** GET /admin/bonus/list-per-page?page&user_id. */
export const bonusListQuery = pageQuery.extend({ user_id: optionalUserId });

/** The success dialog of §8. */
export const BONUS_SENT = 'Bonus berhasil dikirim.';

/** The schema of BonusDto. */
export const bonusDto = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  adminId: z.number().int().nullable(),
  nominal: z.number().int(),
  reason: z.string(),
  createdAt: z.string(),
  User: z.object({ firstname: z.string(), lastname: z.string() }).describe('the member who received it'),
});

/** GET /admin/bonus/list-per-page */
export const bonusPage = pagedOf(bonusDto);

/** POST /admin/bonus/create (201) */
export const savedBonus = z.object({ bonus: bonusDto, msg: z.string() });
