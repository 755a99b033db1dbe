import { z } from 'zod';
import { ACTIVE_STATUSES, type ActiveStatus, BUTTON_TYPES, type ButtonType } from '../constants';
import { pagedOf } from './common';

export interface TemplateButtonDto {
  id: string;
  title: string;
  url: string;
  type: ButtonType;
}

/** A message template (§3). */
export interface TemplateDto {
  id: number;
  media: string | null;
  text: string;
  text_wa: string;
  button: TemplateButtonDto[];
  status: ActiveStatus;
  count_use: number;
}

/** §5 button rules, with the spec's exact texts; null when every button is complete. */
export function buttonProblem(buttons: { title?: string; url?: string }[]): string | null {
  for (const b of buttons) {
    const title = (b.title ?? '').trim();
    const url = (b.url ?? '').trim();
    if (title && !url) return `Judul button : "${title}" belum mempunyai URL.`;
    if (url && !title) return `URL button "${url}" belum punya nama atau judul.`;
  }
  return null;
}

const button = z.object({
  id: z.preprocess((v) => (v === undefined || v === null ? '' : String(v)), z.string().max(64)),
  title: z.preprocess(
    (v) => v ?? '',
    z.string({ error: 'Button title must be text.' }).max(100, 'Button title is too long.'),
  ),
  url: z.preprocess(
    (v) => v ?? '',
    z.string({ error: 'Button URL must be text.' }).max(1000, 'Button URL is too long.'),
  ),
  type: z.enum(BUTTON_TYPES, { error: `Button type must be one of ${BUTTON_TYPES.join(', ')}.` }).default('url_button'),
});

/** The multipart fields of POST /admin/message/create and PUT /admin/message/{id} (the file comes apart). */
export const templateFields = z.object({
  text: z.preprocess((v) => v ?? '', z.string({ error: 'Caption must be text.' }).max(10_000, 'Caption is too long.')),
  text_wa: z.preprocess(
    (v) => v ?? '',
    z.string({ error: 'text_wa must be text.' }).max(10_000, 'text_wa is too long.'),
  ),
  button: z
    .preprocess(
      (v) => {
        if (v === undefined || v === null || v === '') return [];
        if (typeof v !== 'string') return v;
        try {
          return JSON.parse(v);
        } catch {
          return Symbol.for('bad-json');
        }
      },
      z
        .array(button, { error: 'button must be a JSON array of {id, title, url, type}.' })
        .max(10, 'At most 10 buttons.'),
    )
    .superRefine((buttons, ctx) => {
      const problem = buttonProblem(buttons);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  status: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? 'active' : v),
    z.enum(ACTIVE_STATUSES, { error: 'Status must be active or nonactive.' }),
  ),
});

/**
 * The multipart fields of PUT /admin/message/{id}: a button list or status left out (or null)
 * keeps the template's own, so an edit that sends only the caption keeps its buttons.
 */
export const templateUpdateFields = templateFields.extend({
  button: z.preprocess((v) => (v === null ? undefined : v), templateFields.shape.button.optional()),
  status: z.preprocess((v) => (v === null ? undefined : v), templateFields.shape.status.optional()),
});

/** The media a template may carry: the types the preview (§2) and WhatsApp can show. */
export const TEMPLATE_MEDIA_EXTENSIONS = [
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'bmp',
  'svg',
  'mp4',
  '3gp',
  'mp3',
  'ogg',
  'pdf',
] as const;
export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp', 'svg'] as const;

/** The schema of TemplateButtonDto. */
export const templateButtonDto = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string(),
  type: z.enum(BUTTON_TYPES),
});

/** The schema of TemplateDto. */
export const templateDto = z.object({
  id: z.number().int(),
  media: z.string().nullable().describe("the medium's URL"),
  text: z.string().describe('the caption'),
  text_wa: z.string().describe('the text sent on WhatsApp (spintax and {name} allowed)'),
  button: z.array(templateButtonDto),
  status: z.enum(ACTIVE_STATUSES),
  count_use: z.number().int().describe('messages sent with it'),
});

/** GET /admin/message/list */
export const templateList = z.object({ list: z.array(templateDto) });

/** GET /admin/message/list-per-page */
export const templatePage = pagedOf(templateDto);

/** GET /admin/message/{id} */
export const templateResponse = z.object({ message: templateDto });

/** POST /admin/message/create (201) */
export const savedTemplate = z.object({ message: templateDto, msg: z.string() });

/** PUT /admin/message/{id}: the template as it is now (null when it went meanwhile). */
export const updatedTemplate = z.object({ message: templateDto.nullable(), msg: z.string() });

/** GET /admin/message/export: messages.json, what POST /admin/message/import takes back. */
export const templateExport = z.array(
  templateDto.pick({ media: true, text: true, text_wa: true, button: true, status: true }),
);

/** POST /admin/message/import: the templates created and the entries passed over, with why. */
export const templateImportResult = z.object({
  created: z.array(templateDto),
  skipped: z.array(
    z.object({
      number: z.string(),
      name: z.string(),
      status: z.string(),
      id: z.number().int().nullable(),
      reason: z.string(),
      text: z.string(),
    }),
  ),
});

/** GET /admin/message/export: messages.json by default (what import reads back), or a CSV with `button` as JSON. */
export const TEMPLATE_EXPORT = {
  csv: 'messages.csv',
  json: 'messages.json',
  columns: ['media', 'text', 'text_wa', 'button', 'status'],
} as const;
