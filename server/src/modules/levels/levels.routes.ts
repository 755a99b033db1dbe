import { parse } from '@wa/core/validate';
import { idParam, levelBody, pageQuery } from '@wa/shared';
import { Router } from 'express';
import { allow } from '../../http/auth';
import type { LevelsService } from './levels.service';

/** §7 Level: /api/admin/level/… (admin and dev). */
export function levelsRoutes(levels: LevelsService): Router {
  const r = Router();
  r.use(allow('catalogue.manage'));
  r.get('/list-per-page', async (req, res) => {
    res.json(await levels.listPerPage(parse(pageQuery, req.query).page));
  });
  r.post('/create', async (req, res) => {
    res.status(201).json(await levels.create(parse(levelBody, req.body ?? {})));
  });
  r.get('/:id', async (req, res) => {
    res.json(await levels.get(parse(idParam, req.params.id)));
  });
  r.put('/:id', async (req, res) => {
    const id = parse(idParam, req.params.id);
    res.json(await levels.update(id, parse(levelBody, req.body ?? {})));
  });
  r.delete('/:id', async (req, res) => {
    res.json(await levels.remove(parse(idParam, req.params.id)));
  });
  return r;
}
