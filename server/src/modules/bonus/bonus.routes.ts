import { parse } from '@wa/core/validate';
import { bonusListQuery, counterUserParam, idParam } from '@wa/shared';
import { Router } from 'express';
import { actorOf, requireRoles } from '../../http/auth';
import type { BonusService } from './bonus.service';

/** §7 Bonus: /api/admin/bonus/… (admin and dev give and take back; members read their own). */
export function bonusRoutes(bonus: BonusService): Router {
  const r = Router();
  const staffOnly = requireRoles('admin', 'dev');

  r.get('/total/:userId', requireRoles('member', 'admin', 'dev'), async (req, res) => {
    res.json(await bonus.total(actorOf(req), parse(counterUserParam, req.params.userId)));
  });
  r.get('/list-per-page', requireRoles('member', 'admin', 'dev'), async (req, res) => {
    const q = parse(bonusListQuery, req.query);
    res.json(await bonus.listPerPage(actorOf(req), q.page, q.user_id));
  });
  r.post('/create', staffOnly, async (req, res) => {
    res.status(201).json(await bonus.create(actorOf(req), req.body));
  });
  r.delete('/:id', staffOnly, async (req, res) => {
    res.json(await bonus.remove(actorOf(req), parse(idParam, req.params.id)));
  });
  return r;
}
