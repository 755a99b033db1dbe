import { z } from 'zod';
import { normalizePhone } from '../format';
import { idField, pagedOf, pageQuery, searchQuery } from './common';

/**
 * The generator and validator tools (§2 Generator and validator, §3, §5, §7): a WhatsApp account
 * checks numbers one by one (a range, or the numbers of a file) and keeps those on WhatsApp.
 */

/** The account a tool runs on, nested as §3 shows it. */
export interface ToolAccountRef {
  id: number;
  clientid: string;
  pushname: string | null;
  phonenumber: string | null;
}

/** idle, or running: 'generating' / 'validating' (the list shows Generating... / Validating...) */
export type ToolStatus = 'idle' | 'generating' | 'validating';

interface ToolCommon {
  id: number;
  user_id: number | null;
  whatsapp_id: number | null;
  b_insert: 0 | 1;
  interval_min: number;
  interval_max: number;
  /** numbers found on WhatsApp */
  count_success: number;
  /** numbers checked and not on WhatsApp */
  count_fail: number;
  /** percent done, 2 decimals */
  progress: number;
  status: ToolStatus;
  /** how the last run ended: finished, or the error that stopped it */
  state: string | null;
  Whatsapp: ToolAccountRef | null;
  createdAt: string;
}

export interface GeneratorDto extends ToolCommon {
  start_number: string;
  end_number: string;
  /** the last number checked, null before the first */
  current_number: string | null;
}

export interface ValidatorDto extends ToolCommon {
  fileName: string;
  /** the authorised download of the uploaded file (`validatorFileUrl`), never a public path */
  fileUrl: string;
  /** numbers in the file */
  total: number;
  /** numbers of the file checked so far */
  position: number;
}

/**
 * GET /api/admin/validator/file/{id}: the uploaded file, for whoever may see the validator. The
 * uploads hold members' contact lists, so they are not under the public /uploads.
 */
export const validatorFileUrl = (id: number) => `/api/admin/validator/file/${id}`;

/** §3 Result row; the download exports it with status 'active' (§7). */
export interface ToolResultRow {
  number: string;
  name: string;
}

export const TOOL_TEXTS = {
  startAfterEnd: 'Target nomor awal harus lebih kecil dari nomor akhir',
  minAfterMax: 'Interval minimal harus lebih kecil dari interval maksimal',
} as const;

/** The largest range one generator walks (the spec gives none; a million checks is weeks of work). */
export const GENERATOR_MAX_RANGE = 1_000_000;

export const TOOL_EXPORT = {
  generated: 'phone_numbers_generated.csv',
  validated: 'phone_numbers_validated.csv',
  columns: ['number', 'name', 'status'],
} as const;

/** §9 defaults */
export const TOOL_DEFAULT_INTERVAL = { min: 1, max: 2 } as const;

const interval = (label: string, fallback: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? fallback : typeof v === 'string' ? Number(v) : v),
    z
      .number({ error: `${label} must be a number.` })
      .int(`${label} must be a whole number.`)
      .min(0, `${label} must be 0 or more.`)
      .max(86_400, `${label} must be at most 86400 seconds.`),
  );

const bInsert = z.preprocess(
  (v) =>
    v === true || v === 'true' || v === '1' || v === 1
      ? 1
      : v === undefined || v === null || v === '' || v === false || v === 'false' || v === '0' || v === 0
        ? 0
        : v,
  z.union([z.literal(0), z.literal(1)], { error: 'b_insert must be 0 or 1.' }),
);

const rangeNumber = (label: string) =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z
      .string({ error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be text.`) })
      .trim()
      .min(1, `${label} is required.`)
      .transform((v, ctx) => {
        const n = normalizePhone(v);
        if (!n) {
          ctx.addIssue({ code: 'custom', message: `${label} must be a phone number starting with 62.` });
          return z.NEVER;
        }
        return n;
      }),
  );

const toolFields = {
  whatsapp_id: idField('whatsapp_id'),
  b_insert: bInsert,
  interval_min: interval('Interval min', TOOL_DEFAULT_INTERVAL.min),
  interval_max: interval('Interval max', TOOL_DEFAULT_INTERVAL.max),
};

const intervalOrder = (v: { interval_min: number; interval_max: number }, ctx: z.RefinementCtx) => {
  if (v.interval_min > v.interval_max)
    ctx.addIssue({ code: 'custom', path: ['interval_min'], message: TOOL_TEXTS.minAfterMax });
};

/** POST /admin/generator/create and PUT /admin/generator/{id} (§5 Generator). */
export const generatorBody = z
  .object({
    start_number: rangeNumber('Start number'),
    end_number: rangeNumber('End number'),
    ...toolFields,
  })
  .superRefine((v, ctx) => {
    intervalOrder(v, ctx);
    if (v.start_number.length !== v.end_number.length || BigInt(v.start_number) > BigInt(v.end_number)) {
      ctx.addIssue({ code: 'custom', path: ['start_number'], message: TOOL_TEXTS.startAfterEnd });
      return;
    }
    if (BigInt(v.end_number) - BigInt(v.start_number) + 1n > BigInt(GENERATOR_MAX_RANGE)) {
      ctx.addIssue({
        code: 'custom',
        path: ['end_number'],
        message: `A range holds at most ${GENERATOR_MAX_RANGE.toLocaleString('en')} numbers.`,
      });
    }
  });
export type GeneratorInput = z.infer<typeof generatorBody>;

/** The multipart fields of POST /admin/validator/create and PUT /admin/validator/{id} (the file comes apart). */
export const validatorFields = z.object(toolFields).superRefine(intervalOrder);
export type ValidatorInput = z.infer<typeof validatorFields>;

/** GET …/list-per-page?page&user_id&search */
export const toolListQuery = pageQuery.extend({
  user_id: idField('user_id').optional(),
  search: searchQuery(100),
});

/** POST …/start and …/stop */
export const toolIdBody = z.object({ id: idField('id') });

/** The schema of ToolAccountRef. */
export const toolAccountRef = z.object({
  id: z.number().int(),
  clientid: z.string(),
  pushname: z.string().nullable(),
  phonenumber: z.string().nullable(),
});

const toolCommon = {
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  whatsapp_id: z.number().int().nullable(),
  b_insert: z.union([z.literal(0), z.literal(1)]).describe('1: the numbers found are added to the targets'),
  interval_min: z.number().int(),
  interval_max: z.number().int(),
  count_success: z.number().int().describe('numbers found on WhatsApp'),
  count_fail: z.number().int().describe('numbers checked and not on WhatsApp'),
  progress: z.number().describe('percent done, 2 decimals'),
  status: z.enum(['idle', 'generating', 'validating']),
  state: z.string().nullable().describe('how the last run ended: finished, or the error that stopped it'),
  Whatsapp: toolAccountRef.nullable(),
  createdAt: z.string(),
};

/** The schema of GeneratorDto. */
export const generatorDto = z.object({
  ...toolCommon,
  start_number: z.string(),
  end_number: z.string(),
  current_number: z.string().nullable().describe('the last number checked, null before the first'),
});

/** The schema of ValidatorDto. */
export const validatorDto = z.object({
  ...toolCommon,
  fileName: z.string(),
  fileUrl: z.string().describe('GET it (with the token) to download the uploaded file'),
  total: z.number().int().describe('numbers in the file'),
  position: z.number().int().describe('numbers of the file checked so far'),
});

/** GET /admin/generator/list-per-page */
export const generatorPage = pagedOf(generatorDto);
/** GET /admin/generator/{id} */
export const generatorResponse = z.object({ generator: generatorDto });
/** POST /admin/generator/create and PUT /admin/generator/{id} */
export const savedGenerator = z.object({ generator: generatorDto, msg: z.string() });
/** POST /admin/generator/start and /stop: the generator as it is now. */
export const generatorRun = z.object({ data: generatorDto, msg: z.string() });

/** GET /admin/validator/list-per-page */
export const validatorPage = pagedOf(validatorDto);
/** GET /admin/validator/{id} */
export const validatorResponse = z.object({ validator: validatorDto });
/** POST /admin/validator/create and PUT /admin/validator/{id} */
export const savedValidator = z.object({ validator: validatorDto, msg: z.string() });
/** POST /admin/validator/start and /stop: the validator as it is now. */
export const validatorRun = z.object({ data: validatorDto, msg: z.string() });

/** GET …/download-result/{id}: the numbers found on WhatsApp. */
export const toolResult = z.object({ list: z.array(z.object({ number: z.string(), name: z.string() })) });
