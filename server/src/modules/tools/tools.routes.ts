import { notFound } from '@wa/core/errors';
import { parse } from '@wa/core/validate';
import { idParam, toolListQuery } from '@wa/shared';
import { Router } from 'express';
import { actorOf, requireRoles } from '../../http/auth';
import { mediaUpload } from '../../http/upload';
import type { ToolsService } from './tools.service';

/**
 * §7 Generator and validator: /api/admin/generator/… and /api/admin/validator/… (admin, staff and
 * dev; §6). The two share every route but create and update: JSON for the generator, multipart
 * for the validator (with the file on create only). Create and update answer 200, which §7 counts
 * as success; the validator also serves its uploaded file (file/{id}).
 */
export function toolsRoutes(tools: ToolsService): Router {
  const r = Router();
  r.use(requireRoles('admin', 'staff', 'dev'));
  const single = tools.kind === 'generator' ? 'generator' : 'validator';
  const upload = mediaUpload(tools.fileDir, ['csv', 'json'], 'the validator');

  r.get('/list-per-page', async (req, res) => {
    res.json(await tools.listPerPage(actorOf(req), parse(toolListQuery, req.query)));
  });
  r.get('/download-result/:id', async (req, res) => {
    res.json(await tools.downloadResult(actorOf(req), parse(idParam, req.params.id)));
  });
  r.post('/start', async (req, res) => {
    res.json(await tools.start(actorOf(req), req.body));
  });
  r.post('/stop', async (req, res) => {
    res.json(await tools.stop(actorOf(req), req.body));
  });
  if (tools.kind === 'generator') {
    r.post('/create', async (req, res) => {
      res.json(await tools.createGenerator(actorOf(req), req.body));
    });
    r.put('/:id', async (req, res) => {
      res.json(await tools.updateGenerator(actorOf(req), parse(idParam, req.params.id), req.body));
    });
  } else {
    r.post('/create', upload, async (req, res) => {
      res.json(await tools.createValidator(actorOf(req), req.body, req.file));
    });
    r.put('/:id', upload, async (req, res) => {
      res.json(await tools.updateValidator(actorOf(req), parse(idParam, req.params.id), req.body, req.file));
    });
    // a member's contact list: a download only, never rendered, never cached on the way
    r.get('/file/:id', async (req, res, next) => {
      const file = await tools.file(actorOf(req), parse(idParam, req.params.id));
      res.attachment(file.name);
      res.type(file.type);
      res.set({
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      });
      // the path is the server's own (a stored name in the validator folder), wherever DATA_DIR lives
      res.sendFile(file.path, { dotfiles: 'allow', cacheControl: false }, (err) => {
        if (err && !res.headersSent) next(notFound('Validator file not found.'));
      });
    });
  }
  r.get('/:id', async (req, res) => {
    res.json({ [single]: await tools.get(actorOf(req), parse(idParam, req.params.id)) });
  });
  r.delete('/:id', async (req, res) => {
    res.json(await tools.remove(actorOf(req), parse(idParam, req.params.id)));
  });
  return r;
}
