import { z } from 'zod';
import { ROLES, type Role } from '../constants';
import { EMAIL_PATTERN } from '../format';
import { apiKeysRevoked } from './apikeys';
import { optionalId, optionalText, pagedOf, pageQuery, wholeNumber } from './common';
import { newPassword } from './passwords';

/** A user as the API returns it; the password hash never leaves the server. */
export interface UserDto {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  role: Role;
  level: string | null;
  level_id: number | null;
  color: string | null;
  blast_fee: number;
  blast_interval_min: number;
  blast_interval_max: number;
  referral_code: string;
  referrer_id: number | null;
  account_name: string | null;
  account_bank: string | null;
  account_number: string | null;
  createdAt: string;
  income: number;
  whatsapps: number;
}

/** A member row of the member list (§2 Members). */
export type MemberRow = UserDto;

/** An item of the referral list (§3 "Referral item"). */
export interface ReferralItem {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  income: number;
  createdAt: string;
}

/** Fields anybody may change on their own profile (§7 profile edit). */
export const PROFILE_FIELDS = [
  'firstname',
  'lastname',
  'email',
  'password',
  'account_name',
  'account_bank',
  'account_number',
] as const;

/** Fields only admin and dev may change, and never on themselves. */
export const PRIVILEGED_FIELDS = ['role', 'level_id', 'blast_fee', 'blast_interval_min', 'blast_interval_max'] as const;

/**
 * PUT /admin/users/{id}. The web sends the whole user object (§7), so unknown keys are dropped;
 * every known key is optional and type-checked.
 */
export const updateUserBody = z
  .object({
    firstname: optionalText('First name', 100).pipe(z.string().min(1, 'First name is required.').optional()),
    lastname: optionalText('Last name', 100).pipe(z.string().min(1, 'Last name is required.').optional()),
    email: optionalText('Email', 255).pipe(z.string().regex(EMAIL_PATTERN, 'Invalid email format.').optional()),
    password: z.preprocess((v) => (v === null || v === '' ? undefined : v), newPassword().optional()),
    /** required when users change their own password or e-mail */
    current_password: z.preprocess(
      (v) => (v === null || v === '' ? undefined : v),
      z.string({ error: 'Current password must be text.' }).max(1024, 'Current password is too long.').optional(),
    ),
    account_name: optionalText('Account name', 100),
    account_bank: optionalText('Bank', 100),
    account_number: optionalText('Account number', 64).pipe(
      z
        .string()
        .regex(/^[0-9+\-\s]*$/, 'Account number may only hold digits.')
        .optional(),
    ),
    role: z.enum(ROLES, { error: `Role must be one of ${ROLES.join(', ')}.` }).optional(),
    /** a level id, or null (also '') for none; anything else is 'Level must be a number.' */
    level_id: z.preprocess((v) => (v === '' ? null : v), wholeNumber('Level', 1, 2_147_483_647).nullable().optional()),
    blast_fee: wholeNumber('Fee Whatsapp Blast', 0, 1_000_000_000).optional(),
    blast_interval_min: wholeNumber('Interval Min', 0, 86_400).optional(),
    blast_interval_max: wholeNumber('Interval Max', 0, 86_400).optional(),
  })
  .superRefine((v, ctx) => {
    if (
      v.blast_interval_min !== undefined &&
      v.blast_interval_max !== undefined &&
      v.blast_interval_min > v.blast_interval_max
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['blast_interval_min'],
        message: 'Interval minimal harus lebih kecil dari interval maksimal',
      });
    }
  });
export type UpdateUserBody = z.input<typeof updateUserBody>;

export const referralQuery = z.object({ userId: optionalId('userId') });

/** GET /admin/users/members-per-page: page, search, and the 'Filter Status' (active = an account connected or sending). */
export const membersQuery = pageQuery.extend({
  status: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(['active', 'inactive'], { error: 'status must be active or inactive' }).optional(),
  ),
});

/** The schema of UserDto (response-types.ts checks that the two agree). */
export const userDto = z.object({
  id: z.number().int(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  level: z.string().nullable().describe("the level's name"),
  level_id: z.number().int().nullable(),
  color: z.string().nullable().describe("the level's colour"),
  blast_fee: z.number().int().describe('rupiah per message sent'),
  blast_interval_min: z.number().int(),
  blast_interval_max: z.number().int(),
  referral_code: z.string(),
  referrer_id: z.number().int().nullable(),
  account_name: z.string().nullable(),
  account_bank: z.string().nullable(),
  account_number: z.string().nullable(),
  createdAt: z.string().describe('ISO time'),
  income: z.number().int(),
  whatsapps: z.number().int().describe('saved WhatsApp accounts'),
});

/** The schema of ReferralItem. */
export const referralItemDto = z.object({
  id: z.number().int(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  income: z.number().int(),
  createdAt: z.string(),
});

/** GET /admin/users/{id}: the user with the level's name and colour. */
export const userResponse = z.object({
  user: userDto,
  level: z.string().nullable(),
  color: z.string().nullable(),
});

/**
 * PUT /admin/users/{id}: a new `token` when the caller changed their own password or e-mail; after
 * a password change, how many of the user's API keys it revoked (all of them; `msg` says so too).
 */
export const updatedUserResponse = z.object({
  user: userDto,
  msg: z.string(),
  token: z.string().optional().describe("the caller's new session token, after a credential change"),
  api_keys_revoked: apiKeysRevoked.optional(),
});

/** GET /admin/users/blast-fee/{id} */
export const blastFeeResponse = z.object({ blast_fee: z.number().int() });

/** GET /admin/users/members: every member, for pickers. */
export const membersResponse = z.object({
  users: z.array(userDto.pick({ id: true, firstname: true, lastname: true, email: true })),
});

/** GET /admin/users/members-per-page */
export const membersPage = pagedOf(userDto);

/** GET /admin/users/referral-per-page: `list` and `data` hold the same page (older clients read `list`). */
export const referralPage = pagedOf(referralItemDto).extend({
  list: z.array(referralItemDto),
  total: z.number().int(),
});
