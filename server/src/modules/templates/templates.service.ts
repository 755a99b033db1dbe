import { badRequest, notFound } from '@wa/core/errors';
import type { FileStore } from '@wa/core/files/file-store';
import { ImportFileError, parseJsonArray } from '@wa/core/imports/json-stream';
import type { ImportFile } from '@wa/core/imports/records';
import { pageMeta, pageWindow } from '@wa/core/paging';
import { parse } from '@wa/core/validate';
import { type ImportSkipped, type TemplateDto, templateFields, type templateUpdateFields } from '@wa/shared';
import type { z } from 'zod';
import type { Transaction } from '../transaction';
import { assertCaptionOrMedia, CAPTION_OR_MEDIA, TemplateMedia, templateContent } from './template-content';
import type { TemplateInput, TemplatesRepo } from './templates.repo';

/** POST /admin/message/create's fields, parsed by the route. */
export type TemplateFieldsInput = z.output<typeof templateFields>;
/** PUT /admin/message/{id}'s fields: a button list or status left out keeps the template's. */
export type TemplateUpdateInput = z.output<typeof templateUpdateFields>;

/**
 * The rules of message templates (§2, §3, §5 Template): the default pool's, the rows without a
 * campaign (a campaign's variants are campaign-templates.service.ts's).
 */
export class TemplatesService {
  private readonly media: TemplateMedia;

  /**
   * `files` keeps the media where every worker reads them (issue 19); `transaction` binds a
   * TemplatesRepo to one database transaction (an import is all or nothing).
   */
  constructor(
    private readonly repo: TemplatesRepo,
    files: FileStore,
    private readonly transaction: Transaction<TemplatesRepo>,
  ) {
    this.media = new TemplateMedia(files);
  }

  async list() {
    return { list: await this.repo.all() };
  }

  async listPerPage(page: number) {
    const { limit, offset } = pageWindow(page);
    const { total, data } = await this.repo.page(limit, offset);
    return { data, meta: pageMeta(page, total) };
  }

  async get(id: number) {
    const message = await this.repo.find(id);
    if (!message) throw notFound('Template not found');
    return { message };
  }

  /** A new template; its medium is stored before the row points at it, and goes again if the row is refused. */
  async create(input: TemplateFieldsInput, file: Express.Multer.File | undefined) {
    const fields = templateContent(input);
    const media = file ? this.media.urlOf(file) : null;
    assertCaptionOrMedia(fields, media);
    const message = await this.media.withStored(file, () => this.repo.insert({ ...fields, media }));
    return { message, msg: 'Template berhasil disimpan.' };
  }

  /** An edit; new media replaces the old file, which goes once the row points at the new one. */
  async update(id: number, input: TemplateUpdateInput, file: Express.Multer.File | undefined) {
    const current = await this.repo.find(id);
    if (!current) throw notFound('Template not found');
    const fields = templateContent({
      ...input,
      button: input.button ?? current.button,
      status: input.status ?? current.status,
    });
    const media = file ? this.media.urlOf(file) : current.media;
    assertCaptionOrMedia(fields, media);
    const message = await this.media.withStored(file, () => this.repo.update(id, { ...fields, media }));
    if (file) await this.media.remove(current.media);
    return { message, msg: 'Template berhasil diperbarui.' };
  }

  async remove(id: number) {
    const gone = await this.repo.delete(id);
    if (!gone) throw notFound('Template not found');
    await this.media.remove(gone.media);
    return { id, msg: 'Template berhasil dihapus.' };
  }

  /** JSON only (§5): an array of templates; invalid items are skipped with their reason. */
  async import(file: ImportFile) {
    const valid: TemplateInput[] = [];
    const skipped: (ImportSkipped & { text: string })[] = [];
    let count = 0;
    try {
      for await (const item of parseJsonArray(file.text, 64 * 1024)) {
        count++;
        const v = item.value as Record<string, unknown> | null;
        const skip = (reason: string) =>
          skipped.push({
            number: '',
            name: '',
            status: '',
            id: null,
            reason,
            text: typeof v?.text === 'string' ? v.text : '',
          });
        if (item.tooLong || !v || typeof v !== 'object' || Array.isArray(v)) {
          skip(item.tooLong ? 'Row is too long' : 'Not a template');
          continue;
        }
        const media = typeof v.media === 'string' && /^(https?:\/\/|\/uploads\/)/.test(v.media) ? v.media : null;
        try {
          // an item of the file, not a request body: a bad one is skipped with its reason
          const fields = templateContent(
            parse(templateFields, { ...v, button: Array.isArray(v.button) ? JSON.stringify(v.button) : v.button }),
          );
          if (!fields.text_wa && !media) {
            skip(CAPTION_OR_MEDIA);
            continue;
          }
          valid.push({ ...fields, media });
        } catch (err) {
          skip(err instanceof Error ? err.message : 'Invalid template');
        }
      }
    } catch (err) {
      if (err instanceof ImportFileError) throw badRequest(err.message);
      throw err;
    }
    if (count === 0) throw badRequest('The file is empty.');
    // all or nothing: a file that breaks halfway (answered above with 400) saved nothing
    const created = await this.transaction(async (repo) => {
      const out: TemplateDto[] = [];
      for (const t of valid) out.push(await repo.insert(t));
      return out;
    });
    return { created, skipped };
  }
}
