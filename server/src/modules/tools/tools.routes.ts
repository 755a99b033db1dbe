import { parse } from '@wa/core/validate';
import { generatorBody, idParam, toolIdBody, toolListQuery, validatorFields } from '@wa/shared';
import { Router } from 'express';
import { actorOf, allow } from '../../http/auth';
import { discardAfter, discardUpload, mediaUpload, requireUpload } from '../../http/upload';
import type { ToolsService } from './tools.service';

/**
 * §7 Generator and validator: /api/admin/generator/… and /api/admin/validator/… (admin, staff and
 * dev; §6). The two share every route but create and update: JSON for the generator, multipart
 * for the validator (with the file on create only). Create and update answer 200, which §7 counts
 * as success; the validator also serves its uploaded file (file/{id}).
 */
export function toolsRoutes(tools: ToolsService): Router {
  const r = Router();
  r.use(allow('tool.manage'));
  const single = tools.kind === 'generator' ? 'generator' : 'validator';
  const upload = mediaUpload(tools.uploadDir, ['csv', 'json'], 'the validator');

  r.get('/list-per-page', async (req, res) => {
    res.json(await tools.listPerPage(actorOf(req), parse(toolListQuery, req.query)));
  });
  r.get('/download-result/:id', async (req, res) => {
    res.json(await tools.downloadResult(actorOf(req), parse(idParam, req.params.id)));
  });
  r.post('/start', async (req, res) => {
    res.json(await tools.start(actorOf(req), parse(toolIdBody, req.body ?? {}).id));
  });
  r.post('/stop', async (req, res) => {
    res.json(await tools.stop(actorOf(req), parse(toolIdBody, req.body ?? {}).id));
  });
  // an edit answers the tool's 404/403 and 'Stop it first' before the form's errors, as it always has
  if (tools.kind === 'generator') {
    r.post('/create', async (req, res) => {
      res.json(await tools.createGenerator(actorOf(req), parse(generatorBody, req.body ?? {})));
    });
    r.put('/:id', async (req, res) => {
      const actor = actorOf(req);
      const id = parse(idParam, req.params.id);
      await tools.editable(actor, id);
      res.json(await tools.updateGenerator(actor, id, parse(generatorBody, req.body ?? {})));
    });
  } else {
    r.post('/create', upload, async (req, res) => {
      await discardAfter(req.file, async () => {
        const file = requireUpload(req.file);
        res.json(await tools.createValidator(actorOf(req), parse(validatorFields, req.body ?? {}), file));
      });
    });
    r.put('/:id', upload, async (req, res) => {
      // a validator's file is not editable (§5): one sent along is dropped
      await discardUpload(req.file);
      const actor = actorOf(req);
      const id = parse(idParam, req.params.id);
      await tools.editable(actor, id);
      res.json(await tools.updateValidator(actor, id, parse(validatorFields, req.body ?? {})));
    });
    // a member's contact list: a download only, never rendered, never cached on the way
    r.get('/file/:id', async (req, res) => {
      const file = await tools.file(actorOf(req), parse(idParam, req.params.id));
      res.attachment(file.name);
      res.type(file.type);
      res.set({
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      });
      res.send(file.bytes);
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
