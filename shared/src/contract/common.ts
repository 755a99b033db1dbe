import { z } from 'zod';

/** Every error the API returns: `{msg}`, plus per-field messages where a form has fields. */
export interface ApiError {
  msg: string;
  errors?: Record<string, string>;
  /** a machine-readable reason where the UI reacts to it (withdraw: 1 = bank details missing) */
  code?: number;
}

/** The `meta` of a paged list (§3 "List responses"). */
export const pageMetaDto = z.object({
  page: z.number().int(),
  totalPages: z.number().int().describe('at least 1'),
  total: z.number().int(),
  pageSize: z.number().int(),
});

/** A paged list (§3 "List responses"). */
export interface Paged<T> {
  data: T[];
  meta: z.infer<typeof pageMetaDto>;
}

/** The schema of a paged list of `item`: `{data, meta}`, as Paged<T> says. */
export const pagedOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: pageMetaDto });

/** PostgreSQL cannot store a NUL character in text; a value holding one is refused up front. */
export const NUL_MSG = 'must not contain a NUL character (\\0).';

/** True when the text holds a NUL character. */
export const hasNul = (s: string) => s.includes('\0');

/**
 * The dotted path of the first string holding a NUL anywhere in a parsed body or query (`''` for
 * the value itself), or null. The server runs it before every schema, so no route has to remember.
 */
export function findNul(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return hasNul(value) ? path : null;
  if (depth > 20 || value === null || typeof value !== 'object') return null;
  for (const [key, v] of Object.entries(value)) {
    if (hasNul(key)) return path ? `${path}.${key.replaceAll('\0', '')}` : key.replaceAll('\0', '');
    const found = findNul(v, path ? `${path}.${key}` : key, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * A number, or a numeric string as its number; anything else (a boolean, an array, null, an empty
 * string) is passed on as it is, for `z.number` to refuse with the field's own message. (z.coerce
 * would read `true` as 1, `[3]` as 3 and `null`, `false` or `[]` as 0.)
 */
const numeric = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v);

/**
 * `?search=` of a list: trimmed text of at most `max` characters. A repeated parameter (an array)
 * is refused as 'search must be text.'.
 */
export function searchQuery(max = 200) {
  return z
    .string({ error: 'search must be text.' })
    .trim()
    .max(max, 'search is too long')
    .refine((v) => !hasNul(v), `search ${NUL_MSG}`)
    .optional();
}

/** `?page=` as the server reads it: a whole number from 1, default 1; and `?search=`. */
export const pageQuery = z.object({
  page: z
    .preprocess(
      numeric,
      z
        .number({ error: 'page must be a number' })
        .int('page must be a whole number')
        .min(1, 'page must be 1 or more')
        .max(1_000_000_000, 'page is too large'),
    )
    .default(1),
  search: searchQuery(),
});

/** A path id: a positive whole number. */
export const idParam = z.preprocess(
  numeric,
  z
    .number({ error: 'id must be a number' })
    .int('id must be a whole number')
    .positive('id must be a positive number')
    .max(2_147_483_647, 'id is too large'),
);

/**
 * An id in a body or query field: a positive whole number, also as a numeric string. The message
 * names the field and says what was wrong: absent ("X is required."), or given with the wrong type.
 */
export function idField(label: string) {
  return z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({
        error: (issue) =>
          issue.input === undefined
            ? `${label} is required.`
            : `${label} must be a number (got ${typeof issue.input === 'string' ? 'text' : typeof issue.input}).`,
      })
      .int(`${label} must be a whole number.`)
      .positive(`${label} must be a positive number.`)
      .max(2_147_483_647, `${label} is too large.`),
  );
}

/**
 * An optional id in a body or query field: absent, null and '' are absent (so is 0 with
 * `zeroIsAbsent`); otherwise a number or a numeric string, "X must be a number." for anything else.
 */
export function optionalId(label: string, opts: { zeroIsAbsent?: boolean } = {}) {
  return z.preprocess(
    (v) => (v === null || v === '' || (opts.zeroIsAbsent && (v === 0 || v === '0')) ? undefined : v),
    wholeNumber(label, 1, 2_147_483_647).optional(),
  );
}

/** A required text field with the form's own "required" message; null and undefined count as empty. */
export function requiredText(requiredMsg: string, max = 255) {
  return z.preprocess(
    (v) => (v === null || v === undefined ? '' : v),
    z
      .string({ error: `${requiredMsg.replace(/ is required\.$/, '')} must be text.` })
      .trim()
      .min(1, requiredMsg)
      .max(max, `Must be at most ${max} characters.`)
      .refine((v) => !hasNul(v), `${requiredMsg.replace(/ is required\.$/, '')} ${NUL_MSG}`),
  );
}

/** An optional text field: absent or null stays absent; otherwise trimmed text. */
export function optionalText(label: string, max = 255) {
  return z.preprocess(
    (v) => (v === null ? undefined : v),
    z
      .string({ error: `${label} must be text.` })
      .trim()
      .max(max, `${label} must be at most ${max} characters.`)
      .refine((v) => !hasNul(v), `${label} ${NUL_MSG}`)
      .optional(),
  );
}

/** A whole number of rupiah or seconds, from a number or a numeric string. */
export function wholeNumber(label: string, min = 0, max = 1_000_000_000_000) {
  return z.preprocess(
    numeric,
    z
      .number({ error: `${label} must be a number.` })
      .int(`${label} must be a whole number.`)
      .min(min, `${label} must be at least ${min}.`)
      .max(max, `${label} is too large.`),
  );
}

/** First message per top-level field of a zod error, for `{msg, errors}` responses and forms. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : '_';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

/** A required whole number (numeric strings accepted): "X is required." when absent or empty. */
export function requiredNumber(label: string, min = 0, max = 1_000_000_000_000) {
  return z.preprocess(
    (v) => (v === '' || v === null ? undefined : numeric(v)),
    z
      .number({
        error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be a number.`),
      })
      .int(`${label} must be a whole number.`)
      .min(min, `${label} must be at least ${min}.`)
      .max(max, `${label} must be at most ${max}.`),
  );
}

/** The answer of an operation that only says it worked (POST /auth/logout-all). */
export const msgResponse = z.object({ msg: z.string() });

/** The answer of a delete: the row's id and the success text. */
export const deletedResponse = z.object({ id: z.number().int(), msg: z.string() });

/** Every refusal (4xx): `{msg}`, per-field texts on a 400, and a `code` where the UI reacts to it. */
export const apiErrorDto = z.object({
  msg: z.string(),
  errors: z.record(z.string(), z.string()).optional().describe('per-field messages of a form (400)'),
  code: z.number().int().optional().describe('a machine-readable reason (withdraw: 1 = bank details missing)'),
});

/**
 * The refusal of an action that starts or stops work (start/stop a blast, a generator or a
 * validator; give a bonus): `error` repeats `msg`, the name older scripts read.
 */
export const actionErrorDto = apiErrorDto.extend({ error: z.string().describe('the same text as `msg`') });

/** `?format=` of an export route: CSV (a header row) or a JSON array; `fallback` when absent. */
export const exportQuery = (fallback: 'csv' | 'json') =>
  z.object({
    format: z.enum(['csv', 'json'], { error: 'format must be csv or json' }).default(fallback),
  });
