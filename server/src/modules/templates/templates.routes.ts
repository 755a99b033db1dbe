import { parse } from '@wa/core/validate';
import { idParam, TEMPLATE_EXPORT, TEMPLATES } from '@wa/shared';
import { type RequestHandler, Router } from 'express';
import { bind } from '../../http/route';
import { streamDownload } from '../../http/stream';
import { discardAfter } from '../../http/upload';
import { receiveImport } from '../../imports/upload';
import { templateUpload } from './template-upload';
import type { TemplatesService } from './templates.service';

/**
 * §7 Templates: /api/admin/message/… (admin and dev), as declared in shared/src/api/templates.ts.
 * An uploaded medium waits in `uploadDir` only for its request: the service puts it in the file
 * store, and it is removed from there either way.
 */
export function templatesRoutes(templates: TemplatesService, uploadDir: string): Router {
  const r = Router();
  const { media, discardRefused } = templateUpload(uploadDir);
  // a template that is not there is a 404 before any error of the form, as it always was
  const found: RequestHandler = async (req, _res, next) => {
    await templates.get(parse(idParam, req.params.id));
    next();
  };

  bind(r, TEMPLATES.list, () => templates.list());
  bind(r, TEMPLATES.page, ({ query }) => templates.listPerPage(query.page));
  bind(r, TEMPLATES.export, async ({ query, res }) => {
    // every template at once: there are few, and the list is already in memory
    const { list } = await templates.list();
    const rows = list.map(({ media: m, text, text_wa, button, status }) => ({
      media: m,
      text,
      text_wa,
      button,
      status,
    }));
    if (query.format === 'json') {
      res.setHeader('Content-Disposition', `attachment; filename="${TEMPLATE_EXPORT.json}"`);
      return rows;
    }
    // the CSV is written here, `button` as JSON; the binder sends nothing more
    await streamDownload(res, {
      format: 'csv',
      filename: TEMPLATE_EXPORT.csv,
      columns: TEMPLATE_EXPORT.columns,
      next: async (after) => (after === 0 ? list : []),
      pick: ({ media: m, text, text_wa, button, status }) => ({
        media: m,
        text,
        text_wa,
        button: JSON.stringify(button),
        status,
      }),
    });
    return rows;
  });
  bind(r, TEMPLATES.create, ({ body, req }) => discardAfter(req.file, () => templates.create(body, req.file)), {
    before: [media],
  });
  bind(r, TEMPLATES.import, ({ req }) => receiveImport(req, (file) => templates.import(file), { accept: ['json'] }));
  bind(r, TEMPLATES.get, ({ params }) => templates.get(params.id));
  bind(
    r,
    TEMPLATES.update,
    ({ params, body, req }) => discardAfter(req.file, () => templates.update(params.id, body, req.file)),
    { before: [media, found] },
  );
  bind(r, TEMPLATES.remove, ({ params }) => templates.remove(params.id));
  r.use(discardRefused);
  return r;
}
