import { LEVELS } from '@wa/shared';
import { Router } from 'express';
import { bind } from '../../http/route';
import type { LevelsService } from './levels.service';

/** §7 Level: /api/admin/level/… (admin and dev), as declared in shared/src/api/levels.ts. */
export function levelsRoutes(levels: LevelsService): Router {
  const r = Router();
  bind(r, LEVELS.page, ({ query }) => levels.listPerPage(query.page));
  bind(r, LEVELS.create, ({ body }) => levels.create(body));
  bind(r, LEVELS.get, ({ params }) => levels.get(params.id));
  bind(r, LEVELS.update, ({ params, body }) => levels.update(params.id, body));
  bind(r, LEVELS.remove, ({ params }) => levels.remove(params.id));
  return r;
}
