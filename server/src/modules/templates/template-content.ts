import { createReadStream } from 'node:fs';
import { badRequest } from '@wa/core/errors';
import { type FileStore, mimeOf, storedName } from '@wa/core/files/file-store';
import { type ActiveStatus, captionToWhatsapp, sanitizeCaption, type TemplateButtonDto } from '@wa/shared';

/**
 * What a message template and a campaign's variant (issue 22) have in common: the caption as it is
 * stored and sent, and the medium in the file store. Both are message_templates rows made with the
 * same form, so both go through these.
 */

/** Where a template's medium is served from; the stored name follows. */
export const TEMPLATE_MEDIA_URL = '/uploads/templates/';

/** §5: a template says something, in its caption or its medium. */
export const CAPTION_OR_MEDIA = 'Isi caption atau pilih media.';

/** A template's form fields, as parsed by the shared schema. */
export interface CaptionInput {
  text: string;
  button: TemplateButtonDto[];
  status: ActiveStatus;
}

/** What is stored of them: the caption sanitised whatever the client did, text_wa following from it. */
export interface TemplateContent extends CaptionInput {
  text_wa: string;
}

/** The stored caption, its WhatsApp markup, buttons and status. */
export function templateContent(input: CaptionInput): TemplateContent {
  const text = sanitizeCaption(input.text);
  return { text, text_wa: captionToWhatsapp(text), button: input.button, status: input.status };
}

/** The form's 400 when there is neither a caption left after sanitising nor a medium. */
export function assertCaptionOrMedia(content: TemplateContent, media: string | null): void {
  if (!content.text_wa && !media) throw badRequest(CAPTION_OR_MEDIA, { text: CAPTION_OR_MEDIA });
}

/**
 * Template media in the file store (issue 19), where every worker reads them. multer's copy on disk
 * is the request's only; the routes remove it afterwards.
 */
export class TemplateMedia {
  constructor(private readonly files: FileStore) {}

  /** The URL a row keeps for an uploaded medium. */
  urlOf(file: Express.Multer.File): string {
    return `${TEMPLATE_MEDIA_URL}${file.filename}`;
  }

  /**
   * Stores the uploaded medium, then runs `write` (the row that points at it); a refused write
   * removes it again, so the store holds no medium that no template uses.
   */
  async withStored<T>(file: Express.Multer.File | undefined, write: () => Promise<T>): Promise<T> {
    if (!file) return write();
    await this.files.put('template', file.filename, createReadStream(file.path), mimeOf(file.filename));
    try {
      return await write();
    } catch (err) {
      await this.files.remove('template', file.filename);
      throw err;
    }
  }

  /** Removes a medium the API stored; a URL elsewhere (an imported template's) is left alone. */
  async remove(url: string | null): Promise<void> {
    if (!url?.startsWith(TEMPLATE_MEDIA_URL)) return;
    const name = storedName(url);
    if (name) await this.files.remove('template', name);
  }
}
