import { z } from 'zod';

/** API keys a user may hold at once (revoked ones do not count). */
export const API_KEY_CAP = 20;

/** Every key starts with this, so a key is recognised as one (and a leaked one is easy to grep for). */
export const API_KEY_PREFIX = 'wab_';

/** What the API says about keys; the web shows the same texts. */
export const API_KEY_TEXTS = {
  cap: (n: number) => `You already have ${n} API keys. Revoke one to create another.`,
  readOnly: 'This API key is read-only.',
  invalid: 'The API key is not valid (wrong, or revoked).',
  noKeysWithKeys: 'API keys cannot manage API keys: sign in to the dashboard.',
  noSignOutEverywhere: 'An API key cannot sign out everywhere: sign in to the dashboard.',
  /** PUT /admin/users/{id} with a password or e-mail, called with a key */
  noCredentials: 'An API key cannot change a password or an e-mail: sign in to the dashboard.',
  notFound: 'API key not found.',
  tooMany: 'Too many requests with this API key. Try again later.',
  passwordRequired: 'Masukkan password saat ini untuk membuat API key.',
  passwordWrong: 'Password saat ini salah.',
  tooManyWrong: (seconds: number) => `Too many wrong passwords. Please try again in ${seconds} seconds.`,
  /** what a password change or "sign out everywhere" adds to its message when it revoked keys */
  revoked: (n: number) => (n === 1 ? '1 API key was revoked.' : `${n} API keys were revoked.`),
} as const;

/** POST /api/admin/apikeys */
export const createApiKeyBody = z.object({
  name: z
    .string({ error: 'Name is required.' })
    .trim()
    .min(1, { error: 'Name is required.' })
    .max(60, { error: 'Name must be at most 60 characters.' }),
  read_only: z.boolean({ error: 'read_only must be true or false.' }).optional(),
  /** the caller's password: a stolen session alone makes no key (issue 24) */
  current_password: z
    .string({ error: API_KEY_TEXTS.passwordRequired })
    .min(1, { error: API_KEY_TEXTS.passwordRequired })
    .max(1024, { error: 'Current password is too long.' })
    .describe("the caller's current password"),
});

/** An API key as listed: never the key itself. */
export const apiKeyDto = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string().describe("the key's first characters, to tell keys apart"),
  read_only: z.boolean(),
  last_used_at: z.string().nullable().describe('ISO time'),
  created_at: z.string().describe('ISO time'),
});
export type ApiKeyDto = z.infer<typeof apiKeyDto>;

/** The answer to POST: the key, shown this once. */
export const createdApiKey = apiKeyDto.extend({
  key: z.string().describe('the key (`wab_…`), shown this once: send it as `X-API-Key` or as a bearer token'),
});
export type CreatedApiKey = z.infer<typeof createdApiKey>;

/** GET /api/admin/apikeys */
export const apiKeyList = z.object({ data: z.array(apiKeyDto) });

/** DELETE /api/admin/apikeys/{id} */
export const revokedApiKey = z.object({ id: z.number().int(), revoked: z.literal(true) });

/** A password change's and "sign out everywhere"'s `api_keys_revoked`: the user's keys they revoked. */
export const apiKeysRevoked = z
  .number()
  .int()
  .min(0)
  .describe(
    'how many of the user\'s API keys were revoked: a password change and "sign out everywhere" revoke them all',
  );

/** POST /api/auth/logout-all */
export const signedOutEverywhere = z.object({ msg: z.string(), api_keys_revoked: apiKeysRevoked });
