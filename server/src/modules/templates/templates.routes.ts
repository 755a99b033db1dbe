import { parse } from '@wa/core/validate';
import {
  exportQuery,
  idParam,
  pageQuery,
  TEMPLATE_EXPORT,
  TEMPLATE_MEDIA_EXTENSIONS,
  templateFields,
  templateUpdateFields,
} from '@wa/shared';
import { Router } from 'express';
import { allow } from '../../http/auth';
import { streamDownload } from '../../http/stream';
import { discardAfter, mediaUpload } from '../../http/upload';
import { receiveImport } from '../../imports/upload';
import type { TemplatesService } from './templates.service';

/** A template export is JSON unless CSV is asked for (JSON is what import reads back). */
const jsonFirst = exportQuery('json');

/**
 * §7 Templates: /api/admin/message/… (admin and dev). An uploaded medium waits in `uploadDir` only
 * for its request: the service puts it in the file store, and it is removed from there either way.
 */
export function templatesRoutes(templates: TemplatesService, uploadDir: string): Router {
  const r = Router();
  r.use(allow('catalogue.manage'));
  const media = mediaUpload(uploadDir, TEMPLATE_MEDIA_EXTENSIONS);

  r.get('/list', async (_req, res) => {
    res.json(await templates.list());
  });
  r.get('/list-per-page', async (req, res) => {
    res.json(await templates.listPerPage(parse(pageQuery, req.query).page));
  });
  r.get('/export', async (req, res) => {
    const { format } = parse(jsonFirst, req.query);
    const { list } = await templates.list();
    await streamDownload(res, {
      format,
      filename: TEMPLATE_EXPORT[format],
      columns: TEMPLATE_EXPORT.columns,
      // every template at once: there are few, and the list is already in memory
      next: async (after) => (after === 0 ? list : []),
      pick: ({ media: m, text, text_wa, button, status }) => ({
        media: m,
        text,
        text_wa,
        button: format === 'csv' ? JSON.stringify(button) : button,
        status,
      }),
    });
  });
  r.post('/create', media, async (req, res) => {
    await discardAfter(req.file, async () => {
      res.status(201).json(await templates.create(parse(templateFields, req.body ?? {}), req.file));
    });
  });
  r.post('/import', async (req, res) => {
    res.json(await receiveImport(req, (file) => templates.import(file), { accept: ['json'] }));
  });
  r.get('/:id', async (req, res) => {
    res.json(await templates.get(parse(idParam, req.params.id)));
  });
  r.put('/:id', media, async (req, res) => {
    await discardAfter(req.file, async () => {
      const id = parse(idParam, req.params.id);
      // a template that is not there is a 404 before any error of the form, as it always was
      await templates.get(id);
      res.json(await templates.update(id, parse(templateUpdateFields, req.body ?? {}), req.file));
    });
  });
  r.delete('/:id', async (req, res) => {
    res.json(await templates.remove(parse(idParam, req.params.id)));
  });
  return r;
}
